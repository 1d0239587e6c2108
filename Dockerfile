# The installed package runs (not the source folder): build a wheel, install it, run from /data.
FROM python:3.11-slim AS build
WORKDIR /src
COPY pyproject.toml README.md LICENSE ./
COPY bot ./bot
COPY cogs ./cogs
# Alembic's script folder, shipped inside the wheel as bot.migrations (pyproject: package-dir)
COPY migrations ./migrations
RUN pip wheel --no-cache-dir --no-deps --wheel-dir /wheels .

FROM python:3.11-slim
# NUMBA_CACHE_DIR: the win-table kernels compile once; the cache lives on the volume, so restarts skip it.
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    DATABASE_PATH=/data/farkle.sqlite3 \
    NUMBA_CACHE_DIR=/data/.numba
COPY --from=build /wheels /wheels
RUN pip install --no-cache-dir /wheels/*.whl && rm -rf /wheels \
    && useradd --create-home --uid 10001 farkle \
    && mkdir -p /data/.numba && chown -R farkle:farkle /data
USER farkle
WORKDIR /data
VOLUME ["/data"]
CMD ["farkle-bot"]
