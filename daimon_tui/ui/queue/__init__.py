"""The Queue view (3): its screen (composes, handles keys), its one state
(`state.QueueState`), the cards it draws (`cards`), the decision dialog, and
its controllers: the background world-check (`world_checks`) and the verbs
(`verbs`)."""
