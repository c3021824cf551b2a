"""The judging child and what crosses to it: its early start, its requests
(the confirming briefing, a verb's plan and writes), and the first paint it
confirms. Above `read/` and `write/`, whose reads and writes it runs."""
