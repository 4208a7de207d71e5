"""Pictures of μGraphs and of the search: Graphviz text (`dot.py`), rendering through the
`dot` binary where Graphviz is installed (`render.py`), and the search
report's page (`report_page.py`)."""
