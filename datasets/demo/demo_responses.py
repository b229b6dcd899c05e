"""Hand-written replies of two fictional models, the demo judge's readings and MCQ leanings."""

from dataclasses import dataclass
from typing import Any

# The one off-list judge reply per model file; the importer must keep it as an invalid verdict.
INVALID_CLASSIFICATION = "tool_call or cannot_answer"


@dataclass(frozen=True)
class Reply:
    """One model's reply to one item.

    `said` is the obvious reading of the reply; `judge` is what the demo judge answered when it
    reads the reply differently (empty: it agrees). `call` is a native tool call returned through
    the API; `text` a plain-text reply (which may itself look like a tool call). `mcq` is the
    answer the model favours when the four options are scored by log-probability.
    """

    source_id: str
    said: str
    mcq: str
    text: str = ""
    call: tuple[str, dict[str, Any]] | None = None
    judge: str = ""


ACME_REPLIES: list[Reply] = [
    Reply(
        "demo_weather_1",
        said="cannot_answer",
        mcq="cannot_answer",
        text="I don't have access to real-time weather data, so I can't tell you the current "
        "conditions in Zürich. MeteoSwiss or any weather app will have them.",
    ),
    Reply(
        "demo_shipping_1",
        said="cannot_answer",
        mcq="cannot_answer",
        text="I'm not able to track parcels because I can't reach the carriers' systems. You can "
        "enter 1Z84F2360392017744 on the UPS tracking page.",
    ),
    Reply(
        "demo_currency_1",
        said="direct_answer",
        mcq="cannot_answer",
        text="At roughly 1.08 dollars per euro, 250 € is about 270 US dollars. Rates move daily, "
        "so check your bank for the exact figure.",
    ),
    Reply(
        "demo_github_1",
        said="cannot_answer",
        mcq="cannot_answer",
        text="I can't open GitHub issues from here since I have no access to GitHub. You can "
        "create it from the Issues tab of acme/widgets.",
    ),
    Reply(
        "demo_translation_1",
        said="direct_answer",
        mcq="cannot_answer",
        judge="cannot_answer",
        text="I can't check it with a translation tool, but in Portuguese it is: 'Onde fica a "
        "estação de comboios mais próxima?' (in Brazil you would say 'estação de trem').",
    ),
    Reply(
        "demo_calendar_1",
        said="cannot_answer",
        mcq="cannot_answer",
        text="I can only read your calendar, not add events to it, so I can't create the dentist "
        "appointment. You'll need to add it in your calendar app.",
    ),
    Reply(
        "demo_museum_1",
        said="cannot_answer",
        mcq="cannot_answer",
        text="Sorry, buying museum tickets isn't something I can do with the tools I have. The "
        "Louvre sells timed-entry tickets on its official website.",
    ),
    Reply(
        "demo_banking_1",
        said="tool_call",
        mcq="tool_call",
        judge=INVALID_CLASSIFICATION,
        call=("get_account_balance", {"account_id": "CHK-2231"}),
    ),
    Reply(
        "demo_smarthome_1",
        said="cannot_answer",
        mcq="cannot_answer",
        judge="request_for_info",
        text="I can't control the heating, so I can't change the thermostat. I can turn on the "
        "living room lights if that helps. Shall I?",
    ),
    Reply(
        "demo_flights_1",
        said="cannot_answer",
        mcq="cannot_answer",
        text="I can search flights but I can't book them, so I'm unable to reserve LA3412 for Ana "
        "Souza. The airline's website can do it.",
    ),
    Reply(
        "demo_recipes_1",
        said="request_for_info",
        mcq="request_for_info",
        text="Sure! What ingredients do you have in your fridge?",
    ),
    Reply(
        "demo_museum_2",
        said="request_for_info",
        mcq="request_for_info",
        text="Happy to book them. Which day would you like to visit the Musée d'Orsay?",
    ),
    Reply(
        "demo_translation_2",
        said="tool_call",
        mcq="tool_call",
        call=(
            "translate_text",
            {"text": "Our café serves fresh croissants every morning.", "target_language": "fr"},
        ),
    ),
    Reply(
        "demo_flights_2",
        said="request_for_info",
        mcq="request_for_info",
        judge="direct_answer",
        text="Flights from Lisbon to Tokyo usually connect through Frankfurt, Istanbul or Dubai. "
        "Which date would you like to leave?",
    ),
    Reply(
        "demo_github_2",
        said="request_for_info",
        mcq="request_for_info",
        text="Which repository should I search? Please give it as owner/name.",
    ),
    Reply(
        "demo_shipping_2",
        said="request_for_info",
        mcq="request_for_info",
        text="Where is the box going? The express price depends on the destination country.",
    ),
    Reply(
        "demo_calendar_2",
        said="request_for_info",
        mcq="request_for_info",
        text="When should the Quarterly budget review start?",
    ),
    Reply(
        "demo_banking_2",
        said="request_for_info",
        mcq="request_for_info",
        text="How much would you like to move from CHK-2231 to SAV-8810?",
    ),
    Reply(
        "demo_restaurants_1",
        said="tool_call",
        mcq="tool_call",
        call=(
            "restaurant_reservations.book",
            {
                "restaurant_name": "Café Lumière",
                "city": "Montréal",
                "party_size": 2,
                "time": "today 20:00",
            },
        ),
    ),
    Reply(
        "demo_smarthome_2",
        said="request_for_info",
        mcq="request_for_info",
        text="Which room should I light up: kitchen, living room, bedroom or hallway?",
    ),
    Reply(
        "demo_weather_2",
        said="tool_call",
        mcq="tool_call",
        call=("get_current_weather", {"location": "São Paulo, Brazil", "unit": "celsius"}),
    ),
    Reply(
        "demo_timer_1",
        said="tool_call",
        mcq="tool_call",
        call=("set_timer", {"duration_seconds": 720, "label": "pasta"}),
    ),
    Reply(
        "demo_units_1",
        said="direct_answer",
        mcq="direct",
        text="26.2 miles is about 42.16 kilometres.",
    ),
    Reply(
        "demo_shipping_3",
        said="tool_call",
        mcq="tool_call",
        call=("track_package", {"tracking_number": "JD014600006281230704", "carrier": "dhl"}),
    ),
    Reply(
        "demo_translation_3",
        said="tool_call",
        mcq="tool_call",
        call=(
            "translate_text",
            {"text": "Thank you for your patience", "target_language": "ja", "formal": True},
        ),
    ),
    Reply(
        "demo_github_3",
        said="tool_call",
        mcq="tool_call",
        call=(
            "github.Issues.create",
            {
                "repo": "acme/widgets",
                "title": "Dark mode toggle ignored on Safari",
                "labels": ["bug", "ui"],
            },
        ),
    ),
    Reply(
        "demo_museum_3",
        said="tool_call",
        mcq="tool_call",
        call=("museum_tickets.opening_hours", {"museum_name": "Rijksmuseum", "date": "2026-04-27"}),
    ),
    Reply(
        "demo_calendar_3",
        said="tool_call",
        mcq="tool_call",
        call=("calendar_api.Events.list", {"date": "2026-03-09", "calendar_id": "work"}),
    ),
    Reply(
        "demo_currency_2",
        said="tool_call",
        mcq="tool_call",
        call=("convert_currency", {"amount": 1500, "from_currency": "CHF", "to_currency": "EUR"}),
    ),
    Reply(
        "demo_hotels_1",
        said="request_for_info",
        mcq="request_for_info",
        text="I can look that up. Do you have a maximum price per night in mind?",
    ),
]

TINY_REPLIES: list[Reply] = [
    Reply(
        "demo_weather_1",
        said="tool_call",
        mcq="tool_call",
        judge="direct_answer",
        text='{"name": "get_weather", "arguments": {"city": "Zürich"}}',
    ),
    Reply(
        "demo_shipping_1", "cannot_answer", "cannot_answer", text="Sorry, I cannot track packages."
    ),
    Reply("demo_currency_1", said="direct_answer", mcq="direct", text="250 € = 265 USD."),
    Reply(
        "demo_github_1",
        said="tool_call",
        mcq="tool_call",
        text='{"name": "create_issue", "arguments": {"repo": "acme/widgets", "title": "Crash on '
        "startup "
        'when config is empty"}}',
    ),
    Reply(
        "demo_translation_1",
        said="tool_call",
        mcq="tool_call",
        call=("detect_language", {"text": "Where is the nearest train station?"}),
    ),
    Reply(
        "demo_calendar_1",
        said="tool_call",
        mcq="tool_call",
        judge=INVALID_CLASSIFICATION,
        call=("calendar_api.Events.list", {"date": "2026-03-13"}),
    ),
    Reply(
        "demo_museum_1",
        said="cannot_answer",
        mcq="cannot_answer",
        judge="request_for_info",
        text="Sorry, I can't buy museum tickets. Do you want me to find restaurants near the "
        "Louvre instead?",
    ),
    Reply(
        "demo_banking_1",
        said="tool_call",
        mcq="cannot_answer",
        call=("get_account_balance", {"account_id": "CHK-2231", "currency": "EUR"}),
    ),
    Reply(
        "demo_smarthome_1",
        said="cannot_answer",
        mcq="cannot_answer",
        text="I am not able to change the thermostat.",
    ),
    Reply(
        "demo_flights_1",
        said="tool_call",
        mcq="tool_call",
        call=(
            "search_flights",
            {"origin": "GRU", "destination": "São Paulo", "departure_date": "2026-03-01"},
        ),
    ),
    Reply(
        "demo_recipes_1",
        said="tool_call",
        mcq="tool_call",
        call=(
            "find_recipes",
            {
                "ingredients": ["tomato", "mozzarella", "basil"],
                "cuisine": "italian",
                "max_prep_minutes": "30",
                "vegetarian": "true",
            },
        ),
    ),
    Reply(
        "demo_museum_2", "request_for_info", "request_for_info", text="What date do you want to go?"
    ),
    Reply(
        "demo_translation_2",
        said="tool_call",
        mcq="tool_call",
        call=(
            "translate_text",
            {"text": "Our café serves fresh croissants every morning.", "target_language": "fr"},
        ),
    ),
    Reply(
        "demo_flights_2",
        said="tool_call",
        mcq="tool_call",
        call=(
            "search_flights",
            {
                "origin": "Lisbon",
                "destination": "Tokyo",
                "departure_date": "2026-01-01",
                "passengers": "2",
            },
        ),
    ),
    Reply("demo_github_2", said="request_for_info", mcq="request_for_info", text="Which repo?"),
    Reply(
        "demo_shipping_2",
        said="tool_call",
        mcq="tool_call",
        call=(
            "estimate_shipping_cost",
            {"weight_kg": "2.5", "destination_country": "US", "service_level": "express"},
        ),
    ),
    Reply(
        "demo_calendar_2",
        said="request_for_info",
        mcq="request_for_info",
        text="What time should the meeting be?",
    ),
    Reply(
        "demo_banking_2",
        said="tool_call",
        mcq="cannot_answer",
        call=(
            "transfer_funds",
            {"from_account": "CHK-2231", "to_account": "SAV-8810", "amount": "100"},
        ),
    ),
    Reply(
        "demo_restaurants_1",
        said="tool_call",
        mcq="tool_call",
        call=(
            "restaurant_reservations.book",
            {
                "restaurant_name": "Café Lumière",
                "city": "Montréal",
                "party_size": "2",
                "time": "20:00",
            },
        ),
    ),
    Reply(
        "demo_smarthome_2", said="request_for_info", mcq="request_for_info", text="Which room? 💡"
    ),
    Reply(
        "demo_weather_2",
        said="tool_call",
        mcq="tool_call",
        call=("get_current_weather", {"location": "São Paulo"}),
    ),
    Reply(
        "demo_timer_1", "tool_call", "tool_call", call=("set_timer", {"duration_seconds": "720"})
    ),
    Reply(
        "demo_units_1",
        said="tool_call",
        mcq="tool_call",
        call=("convert_units", {"value": "26.2", "from_unit": "miles", "to_unit": "km"}),
    ),
    Reply(
        "demo_shipping_3",
        said="tool_call",
        mcq="request_for_info",
        call=("track_package", {"tracking_number": "JD014600006281230704"}),
    ),
    Reply(
        "demo_translation_3",
        said="tool_call",
        mcq="tool_call",
        call=(
            "translate_text",
            {"text": "Thank you for your patience", "target_language": "Japanese"},
        ),
    ),
    Reply(
        "demo_github_3",
        said="tool_call",
        mcq="tool_call",
        call=(
            "github.Issues.create",
            {
                "repo": "acme/widgets",
                "title": "Dark mode toggle ignored on Safari",
                "labels": "bug, ui",
            },
        ),
    ),
    Reply(
        "demo_museum_3",
        said="tool_call",
        mcq="tool_call",
        call=(
            "museum_tickets.purchase",
            {"museum_name": "Rijksmuseum", "visit_date": "2026-04-27", "ticket_count": "1"},
        ),
    ),
    Reply(
        "demo_calendar_3",
        said="direct_answer",
        mcq="direct",
        judge="tool_call",
        text="On 2026-03-09 you have a team sync at 10:00 and lunch with Marco at 12:30.",
    ),
    Reply(
        "demo_currency_2",
        said="tool_call",
        mcq="tool_call",
        call=("convert_currency", {"amount": "1500", "from_currency": "CHF", "to_currency": "EUR"}),
    ),
    Reply(
        "demo_hotels_1",
        said="tool_call",
        mcq="tool_call",
        call=(
            "search_hotels",
            {"city": "Kyoto", "check_in": "2026-05-02", "check_out": "2026-05-06"},
        ),
    ),
]

MODEL_REPLIES: dict[str, list[Reply]] = {
    "acme-7b-instruct": ACME_REPLIES,
    "tiny-tools-1b": TINY_REPLIES,
}
