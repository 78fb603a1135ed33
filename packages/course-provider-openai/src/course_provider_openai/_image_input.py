"""What both OpenAI wires take of an image: its types and its size (the images and vision guide).

OpenAI documents one set of image input requirements for Chat Completions
and the Responses API alike.
"""

from __future__ import annotations

from typing import Final

from course_vendor import MediaRule

__all__ = ["IMAGES", "MEGABYTE"]

MEGABYTE: Final = 1_000_000
"""A documented "MB", read as the smaller of its two meanings: never send what may be too big."""

IMAGES: Final = MediaRule(
    # "Image input requirements" as OpenAI has published them since April 2026: PNG,
    # JPEG, WEBP and non-animated GIF (animation is the vendor's check); no limit per
    # image any more (it was 20 MB, then 50 MB of images per request), up to 512 MB of
    # payload and 1,500 images in one request, so no image past 512 MB can ever be sent.
    # Both wires take an image by URL or as base64 data.
    frozenset({"image/png", "image/jpeg", "image/webp", "image/gif"}),
    max_bytes=512 * MEGABYTE,
    urls=True,
)
"""The images Chat and Responses take, by type and size, by URL or as bytes."""
