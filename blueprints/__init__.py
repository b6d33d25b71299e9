"""One package per audience (see docs/architecture.md, "blueprints/: one package per
audience"), split along its seams: its pages, its forms, and small service modules."""
