"""Kit-side helpers lent to student processes by tests/test_layer.py."""
