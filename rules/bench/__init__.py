"""The benchmarks' own code, in one place: the random turn of `python -m rules bench` and the generated maps'
turns (`turn`), our engine against MILA's (`mila`, `mila_driver`) and against another checkout's (`compare`,
`compare_driver`), the child processes they speak to (`child`), and the API benchmark's baseline endpoint
(`api`). The commands that run them keep their names (`python -m rules bench`, `manage.py bench_api`, ...).

Nothing but the benchmarks imports this package, and only `api` uses Django."""
