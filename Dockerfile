FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app
COPY pyproject.toml ./
COPY config ./config
COPY campaign ./campaign
COPY orders ./orders
COPY rules ./rules
COPY frontend ./frontend
COPY manage.py ./
RUN pip install --no-cache-dir .
RUN useradd --create-home app
USER app
EXPOSE 8000
