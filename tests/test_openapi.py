"""web/openapi.yaml is a valid OpenAPI document and describes every API route of the app."""

import re
from pathlib import Path

import yaml
from openapi_spec_validator import validate

from web import create_app

SPEC = Path(__file__).parent.parent / "web" / "openapi.yaml"


def test_spec_is_valid_openapi():
    validate(yaml.safe_load(SPEC.read_text()))


def test_every_api_route_is_described(tmp_path):
    spec = yaml.safe_load(SPEC.read_text())["paths"]
    app = create_app({"DATA_DIR": str(tmp_path)})
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/api/"):
            continue
        path = re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", r"{\1}", rule.rule)
        if "{kind}" in path:  # photo.jpg and warped.jpg share one route
            paths = [path.replace("{kind}", k) for k in ("photo", "warped")]
        else:
            paths = [path]
        for p in paths:
            assert p in spec, f"{p} is not in openapi.yaml"
            methods = rule.methods - {"HEAD", "OPTIONS"}
            assert {m.lower() for m in methods} <= set(spec[p]), p
