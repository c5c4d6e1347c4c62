# tapequiz web app. Code grading needs root on the host for its sandbox (cgroups, per-worker
# uids; see docs/sandbox.md), so this image serves every question type except code, which
# answers 501 until the container is run with the sandbox's privileges.
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    TAPEQUIZ_DATA_DIR=/data \
    TAPEQUIZ_HOST=0.0.0.0 \
    TAPEQUIZ_PORT=8000 \
    TAPEQUIZ_SANDBOX_ENABLED=false

WORKDIR /srv/tapequiz
COPY pyproject.toml README.md ./
COPY app ./app
COPY questions ./questions
COPY templates ./templates
COPY static ./static
# Editable, so the app finds questions/, templates/ and static/ beside its package.
RUN pip install -e .

RUN useradd --system --uid 10001 --home-dir /data tapequiz \
    && mkdir -p /data && chown tapequiz /data
USER tapequiz
VOLUME ["/data"]
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=3s --start-period=10s --retries=3 \
    CMD python -c "import urllib.request,sys; sys.exit(urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=2).status != 200)"
CMD ["tapequiz", "serve"]
