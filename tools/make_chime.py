"""Writes static/audio/chime.wav: a soft two-note "ding-dong" (G5 then E5, with a bell's
overtones and an exponential decay), 8 kHz 8-bit mono, about 10 KB. Our own sound, so no
licence question: `python tools/make_chime.py`. Kept out of static/, which serves assets
only."""

import math
import wave
from pathlib import Path

RATE = 8000
SECONDS = 1.25
NOTES = ((0.0, 784.0), (0.45, 659.3))  # (start in seconds, frequency in Hz)
OVERTONES = ((1.0, 1.0), (2.0, 0.35), (3.0, 0.12))  # (multiple, loudness): bell-like


def sample(t: float) -> float:
    value = 0.0
    for start, freq in NOTES:
        if t < start:
            continue
        since = t - start
        attack = min(1.0, since / 0.008)
        decay = math.exp(-since * 4.0)
        for multiple, loud in OVERTONES:
            value += attack * decay * loud * math.sin(2 * math.pi * freq * multiple * since)
    fade = min(1.0, (SECONDS - t) / 0.05)  # no click at the end
    return 0.45 * value * fade


def main() -> None:
    frames = bytes(
        max(0, min(255, round(128 + 127 * sample(i / RATE)))) for i in range(int(RATE * SECONDS))
    )
    target = Path(__file__).resolve().parent.parent / "static" / "audio" / "chime.wav"
    with wave.open(str(target), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(1)
        out.setframerate(RATE)
        out.writeframes(frames)


if __name__ == "__main__":
    main()
