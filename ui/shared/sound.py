"""Sound effects generated with WebAudio (no files): short tones for plays, tricks, the end."""

from __future__ import annotations

from typing import Any

import js  # type: ignore[import-not-found]

_context: Any = None

TONES = {
    "play": ((520.0, 0.05),),
    "trick": ((660.0, 0.07), (880.0, 0.09)),
    "refuse": ((220.0, 0.12),),
    "win": ((523.0, 0.12), (659.0, 0.12), (784.0, 0.2)),
    "lose": ((392.0, 0.15), (330.0, 0.22)),
}


def play(name: str) -> None:
    """Play a named effect; silently nothing when WebAudio is not available."""
    global _context
    try:
        if _context is None:
            factory = getattr(js, "AudioContext", None) or getattr(js, "webkitAudioContext", None)
            if factory is None:
                return
            _context = factory.new()
        ctx = _context
        start = ctx.currentTime + 0.01
        for frequency, length in TONES.get(name, ()):
            osc = ctx.createOscillator()
            gain = ctx.createGain()
            osc.type = "triangle"
            osc.frequency.value = frequency
            gain.gain.setValueAtTime(0.0001, start)
            gain.gain.exponentialRampToValueAtTime(0.12, start + 0.01)
            gain.gain.exponentialRampToValueAtTime(0.0001, start + length)
            osc.connect(gain)
            gain.connect(ctx.destination)
            osc.start(start)
            osc.stop(start + length + 0.02)
            start += length
    except Exception:
        _context = None
