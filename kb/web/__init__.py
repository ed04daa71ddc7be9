"""Flask web layer: SPARQL 1.1 Protocol endpoint, Graph Store Protocol, and room for more blueprints."""
