from bellum.events import EventLog


def test_log_appends_words_and_data_and_round_trips() -> None:
    log = EventLog()
    log.append("shock", "A1 shocks B1: defender routs.", roll=3, drm=7)
    log.append("rally", "B2 rallies.")
    assert len(log) == 2
    assert log[0].data == {"roll": 3, "drm": 7}
    assert log.texts() == ["A1 shocks B1: defender routs.", "B2 rallies."]
    assert [e.kind for e in log.since(1)] == ["rally"]
    assert EventLog.from_list(log.to_list()).to_list() == log.to_list()
