"""Hand-written BFCL-style tool specs shared by the demo items (original content)."""

from typing import Any

ToolSpec = dict[str, Any]


def _prop(kind: str, description: str, **extra: Any) -> dict[str, Any]:
    """Build one BFCL property: type and description first, then items/enum/default."""
    return {"type": kind, "description": description, **extra}


def _tool(name: str, description: str, required: list[str], properties: dict[str, Any]) -> ToolSpec:
    """Build one tool spec with the exact key layout of the When2Call test files."""
    return {
        "name": name,
        "description": description,
        "parameters": {"type": "dict", "required": required, "properties": properties},
    }


_STRING_LIST = {"type": "string"}

TOOL_SPECS: list[ToolSpec] = [
    _tool(
        "get_current_weather",
        "Report the current weather conditions (temperature, sky, wind) for a city.",
        ["location"],
        {
            "location": _prop("string", "City and country, for example 'Lyon, France'."),
            "unit": _prop(
                "string",
                "Temperature unit of the reply.",
                enum=["celsius", "fahrenheit"],
                default="celsius",
            ),
        },
    ),
    _tool(
        "track_package",
        "Look up the latest scan events and the expected delivery date of a parcel.",
        ["tracking_number"],
        {
            "tracking_number": _prop(
                "string", "The tracking number printed on the shipping label."
            ),
            "carrier": _prop(
                "string",
                "Shipping company; 'auto' detects it from the number format.",
                enum=["auto", "dhl", "ups", "fedex", "usps", "royal_mail"],
                default="auto",
            ),
        },
    ),
    _tool(
        "estimate_shipping_cost",
        "Quote the price of sending one box from the user's home country.",
        ["weight_kg", "destination_country"],
        {
            "weight_kg": _prop("float", "Gross weight of the box in kilograms."),
            "destination_country": _prop(
                "string", "Destination country as an ISO 3166-1 alpha-2 code, e.g. 'CA'."
            ),
            "service_level": _prop(
                "string",
                "Speed of the service.",
                enum=["economy", "standard", "express"],
                default="standard",
            ),
        },
    ),
    _tool(
        "convert_currency",
        "Convert an amount of money between two currencies at the current mid-market rate.",
        ["amount", "from_currency", "to_currency"],
        {
            "amount": _prop("float", "The amount to convert."),
            "from_currency": _prop("string", "ISO 4217 code of the source currency, e.g. 'EUR'."),
            "to_currency": _prop("string", "ISO 4217 code of the target currency, e.g. 'USD'."),
        },
    ),
    _tool(
        "convert_units",
        "Convert a measurement from one unit to another (length, mass, volume, temperature).",
        ["value", "from_unit", "to_unit"],
        {
            "value": _prop("float", "The number to convert."),
            "from_unit": _prop("string", "Unit of the input value, singular, e.g. 'mile'."),
            "to_unit": _prop("string", "Unit wanted in the result, singular, e.g. 'kilometer'."),
        },
    ),
    _tool(
        "github.Issues.create",
        "Open a new issue in a GitHub repository.",
        ["repo", "title"],
        {
            "repo": _prop("string", "Repository in 'owner/name' form."),
            "title": _prop("string", "Short title of the issue."),
            "body": _prop("string", "Markdown body of the issue.", default=""),
            "labels": _prop("array", "Names of labels to attach.", items=_STRING_LIST, default=[]),
        },
    ),
    _tool(
        "github.Issues.list",
        "List issues of a GitHub repository, optionally filtered by state and label.",
        ["repo"],
        {
            "repo": _prop("string", "Repository in 'owner/name' form."),
            "state": _prop(
                "string", "Which issues to return.", enum=["open", "closed", "all"], default="open"
            ),
            "label": _prop("string", "Only return issues carrying this label.", default=None),
            "per_page": _prop("integer", "Number of issues per page, at most 100.", default=30),
        },
    ),
    _tool(
        "translate_text",
        "Translate a piece of text into another language.",
        ["text", "target_language"],
        {
            "text": _prop("string", "The text to translate."),
            "target_language": _prop("string", "ISO 639-1 code of the language wanted, e.g. 'de'."),
            "source_language": _prop(
                "string", "ISO 639-1 code of the input, or 'auto'.", default="auto"
            ),
            "formal": _prop(
                "boolean", "Use the formal register where the language has one.", default=False
            ),
        },
    ),
    _tool(
        "detect_language",
        "Guess which language a piece of text is written in.",
        ["text"],
        {"text": _prop("string", "The text to analyse.")},
    ),
    _tool(
        "calendar_api.Events.create",
        "Create an event in one of the user's calendars.",
        ["title", "start_time", "duration_minutes"],
        {
            "title": _prop("string", "Title of the event."),
            "start_time": _prop("string", "Start in ISO 8601 local time, e.g. '2026-03-09T14:00'."),
            "duration_minutes": _prop("integer", "Length of the event in minutes."),
            "attendees": _prop(
                "array", "Names or e-mail addresses to invite.", items=_STRING_LIST, default=[]
            ),
            "calendar_id": _prop("string", "Calendar to write to.", default="primary"),
        },
    ),
    _tool(
        "calendar_api.Events.list",
        "List the events of one day in one of the user's calendars.",
        ["date"],
        {
            "date": _prop("string", "The day, as 'YYYY-MM-DD'."),
            "calendar_id": _prop(
                "string", "Calendar to read, e.g. 'primary' or 'work'.", default="primary"
            ),
        },
    ),
    _tool(
        "send_email",
        "Send an e-mail from the user's account.",
        ["to", "subject", "body"],
        {
            "to": _prop("string", "Recipient address."),
            "subject": _prop("string", "Subject line."),
            "body": _prop("string", "Plain-text body."),
            "cc": _prop("array", "Addresses to copy.", items=_STRING_LIST, default=[]),
        },
    ),
    _tool(
        "search_hotels",
        "Find available hotel rooms in a city for a date range.",
        ["city", "check_in", "check_out"],
        {
            "city": _prop("string", "City to stay in."),
            "check_in": _prop("string", "Arrival date, 'YYYY-MM-DD'."),
            "check_out": _prop("string", "Departure date, 'YYYY-MM-DD'."),
            "guests": _prop("integer", "Number of guests.", default=1),
            "max_price_per_night": _prop(
                "float", "Upper price limit per night in EUR.", default=None
            ),
        },
    ),
    _tool(
        "find_restaurants",
        "Search restaurants in a city by cuisine and price range.",
        ["city"],
        {
            "city": _prop("string", "City to search in."),
            "cuisine": _prop("string", "Kind of food, e.g. 'thai'.", default="any"),
            "price_range": _prop(
                "string", "Budget.", enum=["$", "$$", "$$$", "any"], default="any"
            ),
        },
    ),
    _tool(
        "restaurant_reservations.book",
        "Reserve a table at a named restaurant.",
        ["restaurant_name", "city", "party_size", "time"],
        {
            "restaurant_name": _prop("string", "Name of the restaurant."),
            "city": _prop("string", "City where the restaurant is."),
            "party_size": _prop("integer", "Number of diners."),
            "time": _prop("string", "Date and time of the booking, ISO 8601 or 'today HH:MM'."),
        },
    ),
    _tool(
        "museum_tickets.purchase",
        "Buy timed-entry tickets for a museum.",
        ["museum_name", "visit_date", "ticket_count"],
        {
            "museum_name": _prop("string", "Official name of the museum."),
            "visit_date": _prop("string", "Day of the visit, 'YYYY-MM-DD'."),
            "ticket_count": _prop("integer", "How many tickets to buy."),
            "ticket_type": _prop(
                "string",
                "Price category.",
                enum=["adult", "child", "senior", "student"],
                default="adult",
            ),
        },
    ),
    _tool(
        "museum_tickets.opening_hours",
        "Return the opening hours of a museum on a given day.",
        ["museum_name"],
        {
            "museum_name": _prop("string", "Official name of the museum."),
            "date": _prop("string", "Day to check, 'YYYY-MM-DD'; today if omitted.", default=None),
        },
    ),
    _tool(
        "get_account_balance",
        "Return the available balance of one of the user's bank accounts.",
        ["account_id"],
        {
            "account_id": _prop("string", "Identifier of the account, e.g. 'CHK-2231'."),
            "currency": _prop(
                "string", "Report the balance in this ISO 4217 currency.", default="EUR"
            ),
        },
    ),
    _tool(
        "transfer_funds",
        "Move money between two accounts the user owns.",
        ["from_account", "to_account", "amount"],
        {
            "from_account": _prop("string", "Account to debit."),
            "to_account": _prop("string", "Account to credit."),
            "amount": _prop("float", "Amount to move."),
            "currency": _prop("string", "ISO 4217 code of the amount.", default="EUR"),
            "memo": _prop("string", "Note shown on both statements.", default=""),
        },
    ),
    _tool(
        "get_stock_price",
        "Return the latest traded price of a listed share.",
        ["symbol"],
        {
            "symbol": _prop("string", "Ticker symbol, e.g. 'NESN'."),
            "exchange": _prop("string", "Exchange code, e.g. 'SIX' or 'NASDAQ'.", default="auto"),
        },
    ),
    _tool(
        "search_flights",
        "Search scheduled flights between two airports on a given day.",
        ["origin", "destination", "departure_date"],
        {
            "origin": _prop("string", "IATA code or city of departure."),
            "destination": _prop("string", "IATA code or city of arrival."),
            "departure_date": _prop("string", "Day of departure, 'YYYY-MM-DD'."),
            "passengers": _prop("integer", "Number of adult passengers.", default=1),
            "cabin_class": _prop(
                "string",
                "Cabin wanted.",
                enum=["economy", "premium_economy", "business", "first"],
                default="economy",
            ),
        },
    ),
    _tool(
        "book_flight",
        "Book a seat on a specific flight for one passenger.",
        ["flight_id", "passenger_name"],
        {
            "flight_id": _prop("string", "Carrier code and flight number, e.g. 'LH401'."),
            "passenger_name": _prop("string", "Full name as written in the passport."),
            "seat_preference": _prop(
                "string", "Seat wanted.", enum=["window", "aisle", "any"], default="any"
            ),
        },
    ),
    _tool(
        "request_ride",
        "Order a taxi or ride-share car.",
        ["pickup", "dropoff"],
        {
            "pickup": _prop("string", "Pick-up address."),
            "dropoff": _prop("string", "Drop-off address."),
            "ride_type": _prop(
                "string", "Car size.", enum=["standard", "xl", "premium"], default="standard"
            ),
        },
    ),
    _tool(
        "find_recipes",
        "Suggest recipes that use the given ingredients.",
        ["ingredients"],
        {
            "ingredients": _prop("array", "Ingredients the user has.", items=_STRING_LIST),
            "cuisine": _prop("string", "Preferred cuisine.", default="any"),
            "max_prep_minutes": _prop("integer", "Upper limit on preparation time.", default=60),
            "vegetarian": _prop("boolean", "Only return vegetarian recipes.", default=False),
        },
    ),
    _tool(
        "set_timer",
        "Start a countdown timer on the user's phone.",
        ["duration_seconds"],
        {
            "duration_seconds": _prop("integer", "Length of the countdown in seconds."),
            "label": _prop("string", "Name shown when the timer rings.", default="Timer"),
        },
    ),
    _tool(
        "play_song",
        "Play a song on one of the speakers in the house.",
        ["title"],
        {
            "title": _prop("string", "Title of the song."),
            "artist": _prop(
                "string", "Performer, if a particular version is wanted.", default="any"
            ),
            "speaker": _prop(
                "string",
                "Speaker to use.",
                enum=["kitchen", "living_room", "bedroom"],
                default="living_room",
            ),
        },
    ),
    _tool(
        "set_lights",
        "Switch the smart lights of one room on or off and set their brightness.",
        ["room", "on"],
        {
            "room": _prop(
                "string", "Room name.", enum=["kitchen", "living_room", "bedroom", "hallway"]
            ),
            "on": _prop("boolean", "True to switch on, false to switch off."),
            "brightness": _prop("integer", "Brightness in percent, 1-100.", default=100),
        },
    ),
    _tool(
        "set_thermostat",
        "Set the target temperature of the heating in one room.",
        ["room", "temperature_celsius"],
        {
            "room": _prop(
                "string", "Room name.", enum=["kitchen", "living_room", "bedroom", "hallway"]
            ),
            "temperature_celsius": _prop("float", "Target temperature in degrees Celsius."),
        },
    ),
]

TOOLS_BY_NAME: dict[str, ToolSpec] = {spec["name"]: spec for spec in TOOL_SPECS}
