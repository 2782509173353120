"""A kit module as the layer lends it to the child: standard library only."""


def is_pair(hand):
    """Exactly two of the three ranks are equal."""
    return len(set(hand)) == 2


def names_defined(module, *names):
    """Which names the student's module defines as callables (a probe run in the child)."""
    return {name: callable(getattr(module, name, None)) for name in names}
