"""The briefing view: its screen (composes, handles messages), its one state
(`state.BriefingState`), the messages its parts post (`messages`), and the
parts that are its own (the detail pane, the live watch, the list's rows, the
review's summary screen)."""
