"""The one password policy, for every place a password is chosen (the CLI, create_user,
any form that sets one): at least MIN_LENGTH characters and not one of the passwords that
breached-password lists show people pick most often.

The list holds only common passwords that are long enough to pass the length rule (every
shorter one fails on length already); it is compared without case, spaces or a trailing
run of digits and punctuation, so "Password123!" counts as "password"."""

from __future__ import annotations

import re

MIN_LENGTH = 10
MAX_LENGTH = 200

# Frequent picks of 10 or more characters in public breach corpora, and the words they are
# built from once digits and symbols are stripped off the end ("password", "iloveyou").
_WORDS = """
password passw0rd passwort password1 iloveyou qwerty qwertyuiop qwertyuiop1 qwertz
qwertzuiop asdfghjkl asdfghjkl1 zxcvbnm zxcvbnm1 1qaz2wsx 1qaz2wsx3edc qazwsx qazwsxedc
1q2w3e4r 1q2w3e4r5t 1q2w3e4r5t6y q1w2e3r4t5 a1b2c3d4e5 1234qwer qwer1234 abc123 abcdefghij
abcdefghijk abcdefghijkl abcd1234 letmein letmeinnow welcome welcometo welcomehome
changeme changeit trustno1 sunshine princess football baseball basketball superman batman
starwars dragon monkey shadow master mustang michael jennifer jordan23 computer internet
whatever freedom princess1 iloveyou1 iloveyou2 loveyou lovely babygirl sweetheart
chocolate butterfly elizabeth cheyenne danielle alexander christopher christina victoria
jessica1 charlie buster summer spring autumn winter december november september october
january february august administrator administrator1 admin admin123 adminadmin root toor
user guest test testtest testing testing123 default secret secretpassword mypassword
mypass yourpassword newpassword oldpassword thepassword passphrase nopassword password12
pass pass1234 pa55word p4ssw0rd p@ssw0rd p@ssword passw0rd1 hello helloworld helloworld1
goodluck happiness happyday blessed blessing jesus jesuschrist godisgood mahjong mahjongg
mahjongg1 mahjongtournament mahjtable tournament director americanmahjong
nationalmahjongleague nmjl mahjongcard 0123456789 1234567890 12345678910 0987654321
9876543210 1111111111 0000000000 1234512345 1212121212 1122334455 1357924680 123123123123
123456789a a123456789 1234567890a 123456789q q123456789 123qweasd 123qweasdzxc qweasdzxc
zaq12wsx zaq1zaq1 zaq1xsw2 xsw2zaq1 !qaz2wsx asdasdasd qweqweqwe asdfasdf asdfasdfasdf
qwerqwer zxczxczxc 11111111111 aaaaaaaaaa
"""
COMMON = frozenset(_WORDS.split())

class WeakPassword(ValueError):
    """A chosen password fails the policy; the message says why, in plain words."""


_TRAILING = re.compile(r"[\d\W_]+$")


def password_problem(password: str) -> str | None:
    """What is wrong with `password`, in words for the person choosing it; None if fine."""
    if len(password) < MIN_LENGTH:
        return f"Please choose a password of at least {MIN_LENGTH} characters."
    if len(password) > MAX_LENGTH:
        return f"Please choose a password of at most {MAX_LENGTH} characters."
    plain = password.lower().replace(" ", "")
    if len(set(plain)) <= 2 or plain in COMMON or _TRAILING.sub("", plain) in COMMON \
            or plain.rstrip("!?.") in COMMON:
        return ("That password is one of the most common ones, which people try first. "
                "Please choose another (a few unrelated words work well).")
    return None
