"""The scanned page: text laid out with PyMuPDF, rasterised at 300 DPI, degraded like a photocopy
(slight rotation, blur, speckle, uneven contrast) with a seeded RNG, and saved as an image-only PDF."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pymupdf
from PIL import Image, ImageFilter

from kb.demo.model import Document, stable_rng
from kb.demo.pdf_writer import Layout, place_blocks, save_pdf, set_metadata

DPI = 300


def degrade(image: Image.Image, seed: int) -> Image.Image:
    """Photocopy-like noise that keeps the text legible for OCR."""
    rng = np.random.default_rng(seed)
    angle = float(rng.uniform(-0.8, 0.8))
    img = image.convert("L").rotate(angle, resample=Image.Resampling.BICUBIC, expand=False, fillcolor=255)
    img = img.filter(ImageFilter.GaussianBlur(radius=0.7))
    arr = np.asarray(img, dtype=np.float32)
    _h, w = arr.shape
    shade = np.linspace(0.0, 18.0, w, dtype=np.float32)[None, :]  # uneven illumination left to right
    arr = arr * 0.88 + 14.0 - shade
    arr += rng.normal(0.0, 9.0, size=arr.shape).astype(np.float32)
    specks = rng.random(size=arr.shape) < 0.0015
    arr[specks] = rng.uniform(0, 90, size=int(specks.sum()))
    return Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8), mode="L")


def write_scan(doc: Document, path: Path) -> None:
    """Render `doc.blocks` to one page, then replace it by its noisy raster image (no text layer)."""
    src = pymupdf.open()
    lay = Layout(src)
    doc.pages = place_blocks(doc, lay, doc.blocks)
    if src.page_count != 1:
        raise ValueError(f"{doc.file}: the scanned record must fit on one page")
    pix = src[0].get_pixmap(dpi=DPI, colorspace=pymupdf.csGRAY)
    image = Image.frombytes("L", (pix.width, pix.height), pix.samples)
    noisy = degrade(image, stable_rng(doc.file).randrange(2**31))
    png = io.BytesIO()
    noisy.save(png, format="JPEG", quality=80)
    out = pymupdf.open()
    page = out.new_page(width=src[0].rect.width, height=src[0].rect.height)
    page.insert_image(page.rect, stream=png.getvalue())
    set_metadata(out, doc)
    save_pdf(out, path)
