"""Photo to city: decode -> find the city -> warp -> classify -> decode a legal grid.

Each stage is a separate module of pure array functions; the ONNX sessions live in
``models`` and are created once per process by whoever reads photos.
"""
