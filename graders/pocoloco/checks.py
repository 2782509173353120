import pytest

@pytest.mark.item("setup")
def check_setup(submission, result):
    assert submission.found, "no file"
    result.note("stub")
