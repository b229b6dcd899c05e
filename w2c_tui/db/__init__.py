"""The store: SQLModel tables, the engine, migrations and the queries; ORM rows never leave."""
