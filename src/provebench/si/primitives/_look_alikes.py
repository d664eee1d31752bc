"""Letters drawn like Latin ones, read as those Latin letters (a subset of Unicode TS #39's
confusables), shared by the strict reading's cue fold and the search for a secret's spellings.

Cyrillic and Greek letters drawn like Latin ones ("n\u043et", "\u0455uper"), Latin small
capitals ("\u0274\u1d0f\u1d1b"), and round marks drawn like an `o` ("n\u2d59t"): a cue word or a
secret spelled with them is that word or that secret (SI red team rounds 5 and 14, W1 and K5c).
"""

from __future__ import annotations

from typing import Final

LOOK_ALIKES: Final = str.maketrans(
    # Cyrillic and Greek
    "\u0430\u0435\u043e\u0440\u0441\u0443\u0445\u0456\u0458\u0455\u0501\u04bb\u051b\u051d\u0261"
    "\u0410\u0412\u0415\u041a\u041c\u041d\u041e\u0420\u0421\u0422\u0425\u0406\u0408\u0405\u0423"
    "\u03b1\u03bf\u03c1\u03bd\u03b9\u03ba\u03c5\u0391\u0392\u0395\u0396\u0397\u0399\u039a\u039c"
    "\u039d\u039f\u03a1\u03a4\u03a5\u03a7"
    # Latin small capitals
    "\u1d00\u0299\u1d04\u1d05\u1d07\ua730\u0262\u029c\u026a\u1d0a\u1d0b\u029f\u1d0d\u0274\u1d0f"
    "\u1d18\u0280\ua731\u1d1b\u1d1c\u1d20\u1d21\u028f\u1d22"
    # round marks drawn like an o: Tifinagh yas, white circles, ideographic zero, Armenian and
    # Coptic o
    "\u2d59\u25cb\u25ef\u3007\u0585\u2c9f",
    "aeopcyxijsdhqwgABEKMHOPCTXIJSYaopvikuABEZHIKMNOPTYXabcdefghijklmnoprstuvwyzoooooo",
)

__all__ = ["LOOK_ALIKES"]
