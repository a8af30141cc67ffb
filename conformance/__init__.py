"""The conformance properties, one module per catalogue family (see CATALOGUE in docs).

Find a property from its id: ``grep -rn 'prop("D4"' conformance/``.
"""
