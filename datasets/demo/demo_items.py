"""The 30 hand-written demo items: questions, offered tools and the four candidate answers."""

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class DemoItem:
    """One When2Call-style item before serialisation.

    `call`/`args` form the tool_call answer. For cannot_answer items `call` is the removed tool,
    which goes back into orig_tools at position `removed_at`; for the other labels it is the target.
    """

    uuid: str
    source_id: str
    label: str
    question: str
    tools: tuple[str, ...]
    call: str
    args: dict[str, Any]
    direct: str
    request: str
    refusal: str
    orig_question: str = ""
    held_out: str = ""
    removed_at: int = 0


CANNOT_ANSWER_ITEMS: list[DemoItem] = [
    DemoItem(
        uuid="80b1d1bd-1242-4245-8552-7672dac2aa70",
        source_id="demo_weather_1",
        label="cannot_answer",
        question="What's the weather like in Zürich right now?",
        tools=(),
        call="get_current_weather",
        args={"location": "Zürich, Switzerland"},
        direct="It is 14°C and partly cloudy in Zürich at the moment, with a light breeze from the "
        "lake.",
        request="Do you want the temperature in Celsius or in Fahrenheit?",
        refusal="I'm sorry, I don't have access to live weather data, so I can't tell you the "
        "current conditions in Zürich. A weather app or MeteoSwiss will have them.",
    ),
    DemoItem(
        uuid="8ec71aae-23cc-4350-bf11-ae4fbae3ba70",
        source_id="demo_shipping_1",
        label="cannot_answer",
        question="Can you track my parcel 1Z84F2360392017744 for me?",
        tools=(),
        call="track_package",
        args={"tracking_number": "1Z84F2360392017744", "carrier": "ups"},
        direct="Your parcel 1Z84F2360392017744 left the Louisville hub this morning and should "
        "arrive tomorrow.",
        request="Which carrier is handling the parcel: UPS, FedEx or someone else?",
        refusal="Sorry, I can't look up shipment tracking because I have no connection to carrier "
        "systems. You can paste the number into the carrier's tracking page.",
    ),
    DemoItem(
        uuid="9e297fbb-91e1-488a-bed3-825180790955",
        source_id="demo_currency_1",
        label="cannot_answer",
        question="How much is 250 € in US dollars at today's rate?",
        tools=(),
        call="convert_currency",
        args={"amount": 250.0, "from_currency": "EUR", "to_currency": "USD"},
        direct="At today's rate 250 € comes to about 271.50 US dollars.",
        request="Should I use the card rate of your bank or the mid-market rate?",
        refusal="I'm unable to fetch today's exchange rates, so I can't give you an exact "
        "conversion. A bank or a currency site will show the current rate.",
    ),
    DemoItem(
        uuid="902723c3-ad6a-4f3f-8a83-74fdd33faba5",
        source_id="demo_github_1",
        label="cannot_answer",
        question="Open an issue in acme/widgets titled 'Crash on startup when config is empty'.",
        tools=(),
        call="github.Issues.create",
        args={"repo": "acme/widgets", "title": "Crash on startup when config is empty"},
        direct="Done: issue #512 'Crash on startup when config is empty' is now open in "
        "acme/widgets.",
        request="Should the issue get any labels, such as bug or needs-triage?",
        refusal="I can't create GitHub issues because I have no access to GitHub from here. You "
        "can open it yourself from the Issues tab of acme/widgets.",
    ),
    DemoItem(
        uuid="8aa85e5d-a24a-4505-9188-737f81ba4d85",
        source_id="demo_translation_1",
        label="cannot_answer",
        question="Translate 'Where is the nearest train station?' into Portuguese.",
        tools=("detect_language",),
        call="translate_text",
        args={"text": "Where is the nearest train station?", "target_language": "pt"},
        direct="In Portuguese: 'Onde fica a estação de trem mais próxima?'",
        request="Do you want European or Brazilian Portuguese?",
        refusal="I'm sorry, the only tool I have here detects languages; it cannot translate, so I "
        "can't give you a checked translation.",
    ),
    DemoItem(
        uuid="2d407c1c-d0af-473c-8148-59a5b1a0445b",
        source_id="demo_calendar_1",
        label="cannot_answer",
        question="Put a 30-minute dentist appointment on my calendar for Friday at 9am.",
        tools=("calendar_api.Events.list",),
        call="calendar_api.Events.create",
        args={
            "title": "Dentist appointment",
            "start_time": "2026-03-13T09:00",
            "duration_minutes": 30,
        },
        direct="Your dentist appointment is booked for Friday at 9:00 and will last 30 minutes.",
        request="Which calendar should the appointment go into, personal or work?",
        refusal="I can read your calendar but I have no way to add events to it, so I can't create "
        "the dentist appointment for you.",
        removed_at=1,
    ),
    DemoItem(
        uuid="8f01431c-b5bd-492c-99fa-57dd7818ae58",
        source_id="demo_museum_1",
        label="cannot_answer",
        question="Buy two adult tickets for the Louvre on 14 March.",
        tools=("search_hotels", "find_restaurants"),
        call="museum_tickets.purchase",
        args={
            "museum_name": "Musée du Louvre",
            "visit_date": "2026-03-14",
            "ticket_count": 2,
            "ticket_type": "adult",
        },
        direct="Two adult tickets for the Louvre on 14 March cost 44 € in total; you're all set.",
        request="What time slot would you like to enter the Louvre?",
        refusal="I'm sorry, I can search hotels and restaurants but I can't buy museum tickets. "
        "The Louvre sells timed tickets on its official website.",
        removed_at=2,
    ),
    DemoItem(
        uuid="2f2eb7bf-09d4-404e-b498-6171a8b940ab",
        source_id="demo_banking_1",
        label="cannot_answer",
        question="Send 120 euros from my checking account CHK-2231 to Léa's savings account "
        "SAV-5307.",
        tools=("get_account_balance", "convert_currency", "get_stock_price"),
        call="transfer_funds",
        args={
            "from_account": "CHK-2231",
            "to_account": "SAV-5307",
            "amount": 120.0,
            "currency": "EUR",
        },
        direct="The 120 euros are on their way to Léa's savings account and should arrive within a "
        "day.",
        request="Would you like to add a note for Léa to the transfer?",
        refusal="I can check balances and exchange rates, but I'm not able to move money between "
        "accounts, so I can't make this transfer.",
        removed_at=1,
    ),
    DemoItem(
        uuid="b2a7bf50-67d9-4183-8d93-517e6fface3c",
        source_id="demo_smarthome_1",
        label="cannot_answer",
        question="Set the living room thermostat to 21.5 degrees.",
        tools=("set_lights", "play_song", "set_timer", "get_current_weather"),
        call="set_thermostat",
        args={"room": "living_room", "temperature_celsius": 21.5},
        direct="The living room is now set to 21.5 degrees.",
        request="Should the new temperature apply only today or become the default?",
        refusal="Sorry, I can control lights, music and timers, but not the heating, so I can't "
        "change the thermostat.",
        removed_at=0,
    ),
    DemoItem(
        uuid="c61543ed-2f56-4cd9-8f40-50d932978359",
        source_id="demo_flights_1",
        label="cannot_answer",
        question="Book me on flight LA3412 to São Paulo, passenger Ana Souza, aisle seat please.",
        tools=(
            "search_flights",
            "search_hotels",
            "request_ride",
            "convert_currency",
            "find_restaurants",
        ),
        call="book_flight",
        args={"flight_id": "LA3412", "passenger_name": "Ana Souza", "seat_preference": "aisle"},
        direct="Ana Souza is booked on LA3412 to São Paulo in seat 23C, an aisle seat.",
        request="Could you give me Ana Souza's date of birth as written in her passport?",
        refusal="I can search flights but I have no booking tool, so I can't reserve a seat on "
        "LA3412. The airline's website or a travel agent can do it.",
        removed_at=1,
    ),
]

REQUEST_FOR_INFO_ITEMS: list[DemoItem] = [
    DemoItem(
        uuid="5792fb8f-1835-4e3c-8e85-90c37d019dcc",
        source_id="demo_recipes_1",
        label="request_for_info",
        question="Find me a vegetarian Italian recipe I can make in under 30 minutes with what's "
        "in my fridge.",
        orig_question="Find me a vegetarian Italian recipe I can make in under 30 minutes with "
        "zucchini, ricotta and a lemon.",
        held_out="ingredients",
        tools=("find_recipes",),
        call="find_recipes",
        args={
            "ingredients": ["zucchini", "ricotta", "lemon"],
            "cuisine": "italian",
            "max_prep_minutes": 30,
            "vegetarian": True,
        },
        direct="Try a quick pasta e piselli: peas, onion, parmesan and short pasta, ready in 25 "
        "minutes.",
        request="Happy to help! Which ingredients do you have in your fridge right now?",
        refusal="I'm sorry, I can't see what's in your fridge, so I can't suggest a recipe.",
    ),
    DemoItem(
        uuid="b74a38ff-7a97-41b9-ac3a-0caba894fa0a",
        source_id="demo_museum_2",
        label="request_for_info",
        question="I'd like three student tickets for the Musée d'Orsay.",
        orig_question="I'd like three student tickets for the Musée d'Orsay on 2026-04-11.",
        held_out="visit_date",
        tools=("museum_tickets.purchase",),
        call="museum_tickets.purchase",
        args={
            "museum_name": "Musée d'Orsay",
            "visit_date": "2026-04-11",
            "ticket_count": 3,
            "ticket_type": "student",
        },
        direct="Student tickets for the Musée d'Orsay are free for EU residents under 26, so you "
        "may not need any.",
        request="Sure. On which day do you plan to visit the Musée d'Orsay?",
        refusal="I'm sorry, I'm not able to buy museum tickets.",
    ),
    DemoItem(
        uuid="22428769-a340-471b-aa60-4c0e30086183",
        source_id="demo_translation_2",
        label="request_for_info",
        question="Translate this line for our menu: 'Our café serves fresh croissants every "
        "morning.'",
        orig_question="Translate this line for our menu into German: 'Our café serves fresh "
        "croissants every morning.'",
        held_out="target_language",
        tools=("translate_text",),
        call="translate_text",
        args={"text": "Our café serves fresh croissants every morning.", "target_language": "de"},
        direct="Notre café sert des croissants frais tous les matins.",
        request="Which language should the menu line be translated into?",
        refusal="Sorry, I can't translate text for you.",
    ),
    DemoItem(
        uuid="b8bc0e8a-54b3-42aa-8b1b-3b59e98d73b8",
        source_id="demo_flights_2",
        label="request_for_info",
        question="Find economy flights from Lisbon to Tokyo (東京) for two adults.",
        orig_question="Find economy flights from Lisbon to Tokyo (東京) for two adults "
        "on 3 May 2026.",
        held_out="departure_date",
        tools=("search_hotels", "search_flights"),
        call="search_flights",
        args={
            "origin": "LIS",
            "destination": "TYO",
            "departure_date": "2026-05-03",
            "passengers": 2,
            "cabin_class": "economy",
        },
        direct="There is no direct flight; the usual routings go through Frankfurt or Istanbul and "
        "take about 17 hours.",
        request="What date would you like to fly from Lisbon to Tokyo?",
        refusal="I'm sorry, I can't search for flights.",
    ),
    DemoItem(
        uuid="6dabfefc-7e9a-4501-bc7f-6f6851e3f191",
        source_id="demo_github_2",
        label="request_for_info",
        question="Show me all the closed issues labelled 'regression'.",
        orig_question="Show me all the closed issues labelled 'regression' in octo-org/parser.",
        held_out="repo",
        tools=("github.Issues.list", "github.Issues.create"),
        call="github.Issues.list",
        args={"repo": "octo-org/parser", "state": "closed", "label": "regression"},
        direct="There are 4 closed regression issues: #88, #102, #131 and #140.",
        request="Which repository should I look in? Please give it as owner/name.",
        refusal="I'm unable to browse GitHub issues.",
    ),
    DemoItem(
        uuid="0d8970ec-21c2-4926-8394-94b297288129",
        source_id="demo_shipping_2",
        label="request_for_info",
        question="How much would it cost to send a 2.5 kg box by express?",
        orig_question="How much would it cost to send a 2.5 kg box to Canada by express?",
        held_out="destination_country",
        tools=("track_package", "estimate_shipping_cost", "convert_units"),
        call="estimate_shipping_cost",
        args={"weight_kg": 2.5, "destination_country": "CA", "service_level": "express"},
        direct="An express box of 2.5 kg usually costs between 40 and 60 euros.",
        request="Where is the box going? Shipping prices depend on the destination country.",
        refusal="Sorry, I can't quote shipping prices.",
    ),
    DemoItem(
        uuid="03b868f3-f60a-40f8-9dcf-27ac4849a064",
        source_id="demo_calendar_2",
        label="request_for_info",
        question="Schedule a 45-minute 'Quarterly budget review' with Priya and Tom.",
        orig_question="Schedule a 45-minute 'Quarterly budget review' with Priya and Tom tomorrow "
        "at 10:00.",
        held_out="start_time",
        tools=("calendar_api.Events.list", "send_email", "calendar_api.Events.create"),
        call="calendar_api.Events.create",
        args={
            "title": "Quarterly budget review",
            "start_time": "2026-03-10T10:00",
            "duration_minutes": 45,
            "attendees": ["Priya", "Tom"],
        },
        direct="Quarterly budget reviews work best early in the week, before other meetings pile "
        "up.",
        request="When should the budget review start?",
        refusal="I'm afraid I can't schedule meetings.",
    ),
    DemoItem(
        uuid="84357d69-85b8-4cac-8c74-ba11f25593f5",
        source_id="demo_banking_2",
        label="request_for_info",
        question="Move money from my checking account CHK-2231 to savings SAV-8810.",
        orig_question="Move 400 EUR from my checking account CHK-2231 to savings SAV-8810.",
        held_out="amount",
        tools=("get_account_balance", "transfer_funds", "convert_currency", "get_stock_price"),
        call="transfer_funds",
        args={
            "from_account": "CHK-2231",
            "to_account": "SAV-8810",
            "amount": 400.0,
            "currency": "EUR",
        },
        direct="Moving money to savings regularly is a good habit; many people set aside 10% of "
        "their income.",
        request="How much would you like to move from CHK-2231 to SAV-8810?",
        refusal="I'm sorry, I can't make transfers between accounts.",
    ),
    DemoItem(
        uuid="bba75579-2f02-4fe2-ab80-318aaba5889c",
        source_id="demo_restaurants_1",
        label="request_for_info",
        question="Reserve a table at Café Lumière in Montréal tonight at 8pm.",
        orig_question="Reserve a table for four at Café Lumière in Montréal tonight at 8pm.",
        held_out="party_size",
        tools=(
            "find_restaurants",
            "restaurant_reservations.book",
            "request_ride",
            "get_current_weather",
            "set_timer",
        ),
        call="restaurant_reservations.book",
        args={
            "restaurant_name": "Café Lumière",
            "city": "Montréal",
            "party_size": 4,
            "time": "today 20:00",
        },
        direct="Café Lumière is a lovely bistro; 8pm is usually busy, so booking ahead is wise.",
        request="How many people should I book the table at Café Lumière for?",
        refusal="Sorry, I'm not able to make restaurant reservations.",
    ),
    DemoItem(
        uuid="b88a3726-fe1e-4cf6-8c39-17425bb1e355",
        source_id="demo_smarthome_2",
        label="request_for_info",
        question="Turn the lights on at 40% brightness please ",
        orig_question="Turn the kitchen lights on at 40% brightness please",
        held_out="room",
        tools=(
            "set_thermostat",
            "play_song",
            "set_lights",
            "set_timer",
            "get_current_weather",
            "convert_units",
        ),
        call="set_lights",
        args={"room": "kitchen", "on": True, "brightness": 40},
        direct="Sure, the lights are now on at 40%.",
        request="Which room's lights should I turn on: kitchen, living room, bedroom or hallway?",
        refusal="I'm sorry, I can't control your lights.",
    ),
]

TOOL_CALL_ITEMS: list[DemoItem] = [
    DemoItem(
        uuid="cc3b1fd9-651a-405e-85c2-ee4839f58ded",
        source_id="demo_weather_2",
        label="tool_call",
        question="What's the temperature in São Paulo right now, in Celsius?",
        tools=("get_current_weather",),
        call="get_current_weather",
        args={"location": "São Paulo, Brazil", "unit": "celsius"},
        direct="It's around 24°C in São Paulo right now.",
        request="Do you mean São Paulo in Brazil or another town with the same name?",
        refusal="I'm sorry, I don't have access to live weather information.",
    ),
    DemoItem(
        uuid="1be561d8-5ea0-426f-8aa5-dc5d28398ca8",
        source_id="demo_timer_1",
        label="tool_call",
        question="Set a 12-minute timer for the pasta 🍝",
        tools=("set_timer",),
        call="set_timer",
        args={"duration_seconds": 720, "label": "pasta"},
        direct="Twelve minutes is about right for most dried pasta; taste a piece at ten.",
        request="Should I name the timer 'pasta' or something else?",
        refusal="Sorry, I can't set timers on your phone.",
    ),
    DemoItem(
        uuid="0e469d37-bf30-4dd9-8fed-509bee19dbfc",
        source_id="demo_units_1",
        label="tool_call",
        question="How many kilometres is 26.2 miles?",
        tools=("convert_units",),
        call="convert_units",
        args={"value": 26.2, "from_unit": "mile", "to_unit": "kilometer"},
        direct="26.2 miles is roughly 42.2 kilometres, the length of a marathon.",
        request="Do you want the result rounded, and to how many decimals?",
        refusal="I'm sorry, I can't do unit conversions.",
    ),
    DemoItem(
        uuid="a23e2131-4bb3-4718-adbf-a6f3d8e26485",
        source_id="demo_shipping_3",
        label="tool_call",
        question="Where is my DHL package JD014600006281230704?",
        tools=("estimate_shipping_cost", "track_package"),
        call="track_package",
        args={"tracking_number": "JD014600006281230704", "carrier": "dhl"},
        direct="Your DHL package is out for delivery and should arrive today.",
        request="Could you tell me the postcode the package is being sent to?",
        refusal="I'm afraid I can't track parcels.",
    ),
    DemoItem(
        uuid="aadeade4-25fe-4851-8152-85bfd654d8bf",
        source_id="demo_translation_3",
        label="tool_call",
        question="Translate 'Thank you for your patience' into Japanese, formal please.",
        tools=("translate_text", "detect_language"),
        call="translate_text",
        args={"text": "Thank you for your patience", "target_language": "ja", "formal": True},
        direct="In formal Japanese: お待ちいただきありがとうございます。",
        request="Is this for a written notice or for something you will say out loud?",
        refusal="Sorry, I'm not able to translate into Japanese.",
    ),
    DemoItem(
        uuid="c53eebde-4615-4221-84e1-51e8a0557adc",
        source_id="demo_github_3",
        label="tool_call",
        question="File an issue in acme/widgets titled 'Dark mode toggle ignored on Safari' with "
        "the labels bug and ui.",
        tools=("github.Issues.list", "send_email", "github.Issues.create"),
        call="github.Issues.create",
        args={
            "repo": "acme/widgets",
            "title": "Dark mode toggle ignored on Safari",
            "labels": ["bug", "ui"],
        },
        direct="Issue filed: 'Dark mode toggle ignored on Safari' with labels bug and ui.",
        request="Would you like to add steps to reproduce in the issue body?",
        refusal="I'm sorry, I can't file GitHub issues.",
    ),
    DemoItem(
        uuid="a4ef7933-7f22-421f-a130-b9edad4deab2",
        source_id="demo_museum_3",
        label="tool_call",
        question="Is the Rijksmuseum open on 27 April 2026?",
        tools=("museum_tickets.purchase", "museum_tickets.opening_hours", "search_hotels"),
        call="museum_tickets.opening_hours",
        args={"museum_name": "Rijksmuseum", "date": "2026-04-27"},
        direct="Yes, the Rijksmuseum is open every day from 9:00 to 17:00, including 27 April.",
        request="Are you planning to visit in the morning or in the afternoon?",
        refusal="Sorry, I can't check museum opening hours.",
    ),
    DemoItem(
        uuid="2bf6086b-96fa-4299-b525-429806e5c3d9",
        source_id="demo_calendar_3",
        label="tool_call",
        question="What's on my work calendar on 2026-03-09?",
        tools=("calendar_api.Events.create", "calendar_api.Events.list", "send_email", "set_timer"),
        call="calendar_api.Events.list",
        args={"date": "2026-03-09", "calendar_id": "work"},
        direct="On 9 March you have a stand-up at 9:30 and a design review at 14:00.",
        request="Should I include declined invitations as well?",
        refusal="I'm sorry, I can't read your calendar.",
    ),
    DemoItem(
        uuid="6e2adc9f-e231-4a6f-87ac-273d0472fee2",
        source_id="demo_currency_2",
        label="tool_call",
        question="How much is 1,500 Swiss francs in euros today?",
        tools=("get_account_balance", "transfer_funds", "get_stock_price", "convert_currency"),
        call="convert_currency",
        args={"amount": 1500.0, "from_currency": "CHF", "to_currency": "EUR"},
        direct="1,500 Swiss francs is roughly 1,600 € at recent rates.",
        request="Do you need the rate your bank charges or the mid-market rate?",
        refusal="Sorry, I can't look up exchange rates.",
    ),
    DemoItem(
        uuid="93c32109-7056-4d77-90e9-141d93a7d401",
        source_id="demo_hotels_1",
        label="tool_call",
        question="Find a hotel in Kyoto for 2 guests, checking in 2026-05-02 and out 2026-05-06.",
        tools=(
            "search_flights",
            "book_flight",
            "search_hotels",
            "request_ride",
            "find_restaurants",
            "get_current_weather",
        ),
        call="search_hotels",
        args={"city": "Kyoto", "check_in": "2026-05-02", "check_out": "2026-05-06", "guests": 2},
        direct="Kyoto has many good hotels near Kyoto Station and in Gion; early May is Golden "
        "Week, so book soon.",
        request="Do you have a budget per night in mind?",
        refusal="I'm sorry, I can't search for hotels.",
    ),
]

DEMO_ITEMS: list[DemoItem] = CANNOT_ANSWER_ITEMS + REQUEST_FOR_INFO_ITEMS + TOOL_CALL_ITEMS
