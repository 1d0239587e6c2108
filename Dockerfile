# Same install and entry point as `make run`: the package from pyproject.toml, then `python -m bot`.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    DATABASE_PATH=/data/farkle.sqlite3

WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY cogs ./cogs
COPY migrations ./migrations
RUN pip install --no-cache-dir . \
    && useradd --create-home --uid 10001 farkle \
    && mkdir -p /data && chown farkle:farkle /data

USER farkle
VOLUME ["/data"]
CMD ["python", "-m", "bot"]
