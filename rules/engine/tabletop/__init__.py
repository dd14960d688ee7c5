"""The tabletop battle system (TABLETOP.md): battles fought with miniatures; the close-combat calculator."""
