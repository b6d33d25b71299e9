"""One package per audience (see README "Layout"); each has views.py, forms.py, service.py."""
