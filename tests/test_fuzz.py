"""Seeded fuzz of the whole API through the test client: a few hundred mutated uploads and
malformed calls, and never a 500 (bench/fuzz.py runs thousands against waitress)."""

import io
import sys
from pathlib import Path

import pytest

from web import create_app

sys.path.insert(0, str(Path(__file__).parent.parent / "bench"))
import fuzz  # noqa: E402


def sender(client):
    def send(method, path, body=None, photo=None):
        if photo is not None:
            response = client.open(path, method=method, content_type="multipart/form-data",
                                   data={"photo": (io.BytesIO(photo), "city.jpg")})
        elif isinstance(body, bytes):
            response = client.open(path, method=method, data=body,
                                   content_type="application/json")
        else:
            response = client.open(path, method=method, json=body)
        return response.status_code, response.data
    return send


@pytest.mark.parametrize("seed", [1, 2])
def test_fuzzed_requests_never_fail_the_server(tmp_path, seed):
    app = create_app({"TESTING": True, "DATA_DIR": str(tmp_path)})
    result = fuzz.run(sender(app.test_client()), uploads=60, calls=140, seed=seed)
    assert result["failures"] == [], result["failures"][:5]
    assert sum(result["statuses"].values()) == result["cases"] + 3
