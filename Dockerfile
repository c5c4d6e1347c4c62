# tapequiz: the web app and its sandboxed code checker, run as a non-root user.
# Code answers are graded by the `rootless` sandbox backend (bubblewrap in unprivileged user
# namespaces; `cgroup2` instead where the container gets a delegated cgroup). Docker's default
# seccomp profile refuses those namespaces, so run it with the options in the README or
# docker-compose.yml: --security-opt seccomp=deploy/docker-seccomp.json,
# --security-opt systempaths=unconfined (a fresh /proc for each worker's pid namespace), and
# --security-opt apparmor=unconfined where AppArmor runs. Never --privileged.
#
# Two stages: the build stage has pip and the wheels' downloads; the final one copies only the
# venv and the app. Debian's python3 (3.11) because python3-seccomp is built for it.
FROM debian:bookworm-slim AS build
RUN apt-get update \
    && apt-get install -y --no-install-recommends python3 python3-venv \
    && rm -rf /var/lib/apt/lists/*
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1 PYTHONDONTWRITEBYTECODE=1
WORKDIR /srv/tapequiz
COPY pyproject.toml README.md ./
COPY app ./app
# Editable, so the app finds questions/, templates/ and static/ beside its package.
RUN python3 -m venv /opt/venv && /opt/venv/bin/pip install -e ".[grading]"

FROM debian:bookworm-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends python3 bubblewrap python3-seccomp \
    && rm -rf /var/lib/apt/lists/*
COPY --from=build /opt/venv /opt/venv
COPY --from=build /srv/tapequiz /srv/tapequiz
WORKDIR /srv/tapequiz
COPY questions ./questions
COPY templates ./templates
COPY static ./static

ENV PATH=/opt/venv/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    TAPEQUIZ_DATA_DIR=/data \
    TAPEQUIZ_HOST=0.0.0.0 \
    TAPEQUIZ_PORT=8000 \
    TAPEQUIZ_SANDBOX_ENABLED=true \
    TAPEQUIZ_SANDBOX_BACKEND=auto

RUN useradd --system --uid 10001 --home-dir /data tapequiz \
    && mkdir -p /data && chown tapequiz /data
USER tapequiz
VOLUME ["/data"]
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=3s --start-period=60s --retries=3 \
    CMD python -c "import urllib.request,sys; sys.exit(urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=2).status != 200)"
CMD ["tapequiz", "serve"]
