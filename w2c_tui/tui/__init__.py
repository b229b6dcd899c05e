"""The Textual front end: screens, widgets and the app; talks only to services."""
