"""daimon's door: every daimon module the store calls, every private daimon
name and every run-time swap of a daimon function.

The store's other modules take daimon's public modules from `public`
(`public_cli` for the CLI's, dearer to import) and nothing from daimon itself.

One adapter per concern of daimon's that the app leans on beyond its public
API: `reading` (ledgers, folds, the kept fold's swaps), `judging` (the judge,
the shared snapshot, the trust index), `writing` (input rules, the demo's
clock), `recall` (the search index's freshness), `receipts`, `team`,
`rendering` (the briefing's own lines and panel), `allocating` (the terms
of the briefing allocator's drop order). Nothing else in `store/`
touches a leading-underscore daimon attribute or assigns onto a daimon
module (tests/store/test_daimon_contracts.py greps for it with `ast`).

Each assumption an adapter makes is a `registry.Contract`, named by its id;
its check (`contracts.CHECKS`, same id) runs in the tests against the
installed daimon and, at run time, for `mode`: what an adapter composes from
public names is in `composed` (it asks no mode, so the checks can run it), and
daimon's own functions, while swapped, are kept in `originals`. On a daimon
release we have not tested, or when a contract fails, the app runs in safe
mode (no kept fold, no swap, no optional private read; a verb that needs a
private call is off, with the reason).
"""
