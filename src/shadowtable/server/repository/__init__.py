"""The server's repository: every SQL statement the server runs, each a small named function.

- :mod:`~shadowtable.server.repository.tables`: tables, seats, actions and chat (and
  :class:`~shadowtable.server.repository.tables.Repository`, which runs them for the table service);
- :mod:`~shadowtable.server.repository.accounts`: accounts, password resets and sign-in sessions;
- :mod:`~shadowtable.server.repository.ratings`: ratings, leaderboards and players' histories;
- :mod:`~shadowtable.server.repository.leases`: which process owns each table in play;
- :mod:`~shadowtable.server.repository.analyses`: the queue of analyses of finished tables and their results.

The database itself (group-commit writers, migrations, reads) is :mod:`shadowtable.server.store`;
:func:`~shadowtable.server.repository.failures.store_failures` turns its failures into the
service's errors in one place.
"""
