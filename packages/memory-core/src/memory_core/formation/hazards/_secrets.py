"""The secret catalogue: shapes the usual scanners (gitleaks, detect-secrets) look for, written
as our own bounded rules over the matching skeleton.

Families (a refusal is counted under its family):

* ``secret.credential``: assignments (``api_key=...``, ``"password": "..."``), stated
  passwords, PINs and door codes (``my PIN is 0417``), the value before its label (``I use
  hunter2 as my password``, ``I use <key> as the secret for the bucket``), ``set my password
  to ...``, seed phrases, CVVs.
* ``secret.auth_header``: ``Bearer <token>``, ``Basic <base64>``.
* ``secret.provider_token``: fixed-prefix tokens (AWS, GitHub, GitLab, Slack, OpenAI and
  Anthropic ``sk-``, Stripe, Google, npm, PyPI, Hugging Face, SendGrid, Discord, Mailgun,
  Twilio, Telegram, Shopify, DigitalOcean, Square, Vault, Databricks, Linear, Postman, Pulumi,
  Grafana, New Relic, age, Sentry, Doppler, Alibaba, Mailchimp, Atlassian, Azure, JWTs) and
  the first piece of one (a known prefix and a few characters: a token split in two).
* ``secret.private_key``: PEM and PuTTY private key blocks.
* ``secret.connection_string``: URLs carrying a password (``postgres://user:pass@host``).
* ``secret.financial``: card numbers (Luhn), IBANs (mod-97, country length).
* ``secret.national_id``: US social security numbers inside the issued ranges.
* ``secret.high_entropy``: a long token mixing lower case, upper case and digits with high
  entropy, labelled or not (a base64 salt, an AWS secret access key), and long hex labelled as
  a key, token, secret or salt.

Every quantifier is bounded and every token rule starts at a token boundary, so each rule is
linear in the text.
"""

from __future__ import annotations

import re
from dataclasses import replace

from memory_core.formation.hazards._checks import (
    digit_share,
    iban_valid,
    luhn_valid,
    random_looking,
    ssn_valid,
    unlabelled_secret,
)
from memory_core.formation.hazards._rules import (
    HazardKind,
    HazardRule,
    Shape,
    redaction_mask,
    rule,
    whole,
)

_S = HazardKind.SECRET
_CRED = "secret.credential"
_TOKEN = "secret.provider_token"

_NAME = (
    r"(?:api[\s_-]?key|apikey|secret(?:[_-]?key)?|client[_-]?secret|access[_-]?token"
    r"|auth[_-]?token|refresh[_-]?token|session[_-]?token|bearer[_-]?token|token|password"
    r"|passwd|pwd|(?<=[_-])pass|passphrase|passcode|private[_-]?key|access[_-]?key(?:[_-]?id)?"
    r"|account[_-]?key|secret[_-]?access[_-]?key|credentials?|signing[_-]?key|master[_-]?key"
    r"|encryption[_-]?key|pin)"
)
_STRONG_LABEL = (
    r"(?:password|passwort|contrase[nñ]a|mot\s+de\s+passe|senha|passcode|passphrase|pin"
    r"|pin\s+(?:code|number)|secret|salt|combination|pass\s+phrase)"
)
_WEAK_LABEL = r"(?:code|key|api\s+key|token|seed|login|door\s+code|access\s+code|unlock\s+code)"
_CODE_LABEL = (
    r"(?:door|gate|alarm|lock|safe|garage|entry|access|security|wifi|wi-fi|voicemail|unlock"
    r"|locker|building|keypad|office|bank|atm|debit|credit|card|phone|sim|router|vault)\s+"
    r"(?:code|combination|pin|password|passcode)"
)
_NOT_A_LABEL_AFTER = (
    r"(?!\s+(?:manager|managers|vault|app|policy|policies|reset|generator|hint|field|rules"
    r"|requirements?|strength|protection|recovery|change|length|review|style))"
)
_FUNCTION_WORDS = frozenset(
    {
        "a", "an", "the", "in", "on", "at", "of", "to", "for", "not", "never", "too", "very",
        "this", "that", "it", "what", "which", "who", "there", "here", "same", "required",
        "optional", "expired", "wrong", "incorrect", "changed", "reset", "case",
        "long", "short", "strong", "weak", "secret", "private", "written", "stored", "saved",
        "my", "your", "our", "his", "her", "their", "also", "still", "now", "just", "being",
        "different", "easy", "hard", "simple", "unique", "new", "old", "something", "nothing",
        "stolen", "compromised", "leaked", "hacked", "lost", "forgotten", "updated", "locked",
        "blocked", "so", "really", "probably", "definitely", "fine", "ok", "okay", "good", "bad",
        "terrible", "great", "safe", "secure", "insecure", "complicated", "complex", "random",
        "exposed", "shared", "encrypted", "hashed", "needed", "invalid", "valid",
    }
)  # fmt: skip


def _value_ok(value: str) -> bool:
    bare = value.strip(".,;:!?\"'()[]{}").casefold()
    return bool(bare) and bare not in _FUNCTION_WORDS


def _stated(match: re.Match[str]) -> bool:
    return _value_ok(match.group("v"))


def _value_label(match: re.Match[str]) -> bool:
    value = match.group("v").strip(".,;:!?\"'()[]{}")
    if not _value_ok(value):
        return False
    if match.group("strong") is not None:
        return True
    mixed = any(c.isdigit() for c in value) and any(c.isalpha() for c in value)
    return (
        (len(value) >= 3 and digit_share(value) >= 0.5)
        or (len(value) >= 6 and mixed and not value.isupper())
        or random_looking(value, min_length=12)
    )


def _labelled_value(match: re.Match[str]) -> bool:
    return random_looking(match.group("v"))


def _assignment(match: re.Match[str]) -> bool:
    return _value_ok(match.group("v"))


def _unlabelled(match: re.Match[str]) -> bool:
    return unlabelled_secret(match.group(0))


def _prefix_fragment(match: re.Match[str]) -> bool:
    tail = match.group("tail")
    return any(c.isdigit() for c in tail) and any(c.isalpha() for c in tail)


_KEY_KIND = re.compile(r"^(?:proj|ant|svcacct|admin)-(?P<random>[A-Za-z0-9_]{20,})$")
"""An OpenAI or Anthropic key kind after ``sk-`` and its random part (no hyphenated words)."""


def _openai_style(match: re.Match[str]) -> bool:
    """An ``sk-`` key: a tail that mixes digits and letters (``sk-learn`` is no key), or a named
    key kind whose random part is one unbroken run of 20 or more characters with both cases,
    even without a digit (about 1 in 5,000 real 48-character keys has none);
    ``sk-proj-migration-for-billing`` is words, not a key."""
    if _prefix_fragment(match):
        return True
    kind = _KEY_KIND.match(match.group("tail"))
    if kind is None:
        return False
    random = kind.group("random")
    mixed_case = any(c.isupper() for c in random) and any(c.islower() for c in random)
    return mixed_case or (len(random) >= 32 and random.isalpha())


_TOKEN_CHARS = r"A-Za-z0-9+/_\-=."

_CATALOGUE: tuple[HazardRule, ...] = (
    # -- credentials ------------------------------------------------------------------------
    rule(
        "credential_assignment",
        _S,
        _CRED,
        rf"(?<![A-Za-z0-9])(?:[A-Za-z0-9]{{1,24}}[_-]){{0,6}}{_NAME}['\"]?\s{{0,8}}(?:[:=]|=>)"
        rf"\s{{0,8}}['\"]?(?P<v>[^\s'\",;]{{3,256}})",
        check=_assignment,
    ),
    rule(
        "stated_password",
        _S,
        _CRED,
        rf"\b(?:{_STRONG_LABEL}|{_CODE_LABEL}|pw|pwd)s?\b"
        r"(?:\s{1,4}(?:for|to|of|on|at)\s{1,4}[^.,;!?\n]{1,40}?)?"
        r"(?:\s{1,4}(?:is|was|are|ist|es|est|e|è)\b|\s{0,4}(?:=|:|'s|’s))\s{0,4}(?:[:=-]\s{0,4})?"
        r"(?P<v>[^\s]{2,128})",
        check=_stated,
    ),
    rule(
        "label_then_value",
        _S,
        _CRED,
        rf"\b(?:{_STRONG_LABEL}|{_CODE_LABEL}|pw|pwd)s?\s{{1,3}}[:#=]?\s{{0,3}}(?P<v>[^\s]{{3,64}})",
        check=lambda m: any(c.isdigit() for c in m.group("v")) and _value_ok(m.group("v")),
    ),
    rule(
        "dangling_label",
        _S,
        _CRED,
        rf"\b(?:{_STRONG_LABEL}|{_CODE_LABEL}|api\s+key|key|token|pw|pwd)s?\b"
        r"(?:\s{1,4}(?:for|to|of|on|at)\s{1,4}[^.,;!?\n]{1,40}?)?\s{0,4}(?:is|was|are|=|:|'s|’s)"
        r"(?:\s{1,4}(?:the\s+following|below|as\s+follows|this|here|next))?\s{0,4}[:.…-]{0,3}"
        r"\s{0,4}$",
    ),
    rule(
        "value_then_label",
        _S,
        _CRED,
        r"\b(?:use|used|uses|using|set|chose|picked|have|had|keep|kept|made|typed|entered)\s{1,4}"
        r"(?P<v>[^\s]{3,128})\s{1,4}(?:as|for)\s{1,4}(?:(?:my|the|our|a|an|his|her|their|your)\s{1,4})?"
        rf"(?:[\w-]{{1,20}}\s{{1,4}}){{0,3}}?(?:(?P<strong>{_STRONG_LABEL}|{_CODE_LABEL})"
        rf"|{_WEAK_LABEL})s?\b{_NOT_A_LABEL_AFTER}",
        check=_value_label,
    ),
    rule(
        "value_is_my_password",
        _S,
        _CRED,
        r"(?<!\S)(?P<v>[^\s]{3,128})\s{1,4}(?:is|was)\s{1,4}(?:my|the|our|his|her|their)\s{1,4}"
        rf"(?:[\w-]{{1,20}}\s{{1,4}}){{0,2}}?(?:{_STRONG_LABEL}|{_CODE_LABEL})\b"
        rf"{_NOT_A_LABEL_AFTER}",
        check=_stated,
    ),
    rule(
        "set_password_to",
        _S,
        _CRED,
        r"\b(?:set|changed|change|reset|updated|update|made)\s{1,4}(?:my|the|our)\s{1,4}"
        rf"(?:[\w-]{{1,20}}\s{{1,4}}){{0,2}}?(?:{_STRONG_LABEL}|{_CODE_LABEL})s?\s{{1,4}}"
        r"(?:to|as|into)\s{1,4}(?P<v>[^\s]{2,128})",
        check=_stated,
    ),
    rule(
        "seed_phrase",
        _S,
        _CRED,
        r"\b(?:seed|recovery|mnemonic|backup|wallet)\s{1,4}(?:phrase|words)\b[^\n]{0,20}?"
        r"(?:is|are|:)\s{0,4}(?:[a-z]{3,8}[\s,]{1,3}){11}",
    ),
    rule("card_security_code", _S, _CRED, r"\b(?:cvv2?|cvc2?|csc)\b[^\d\n]{0,16}\d{3,4}\b"),
    # -- authorization headers --------------------------------------------------------------
    rule(
        "bearer_token",
        _S,
        "secret.auth_header",
        r"\bbearer\s{1,4}(?P<v>[A-Za-z0-9\-._~+/]{8,512}=*)",
        check=lambda m: any(c.isdigit() for c in m.group("v")) or len(m.group("v")) >= 20,
    ),
    rule(
        "basic_auth",
        _S,
        "secret.auth_header",
        r"\b(?:authorization:\s{0,4})?basic\s{1,4}(?P<v>[A-Za-z0-9+/]{12,512}={0,2})"
        r"(?![A-Za-z0-9+/])",
        check=lambda m: any(c.isdigit() for c in m.group("v")) or m.group("v").endswith("="),
    ),
    # -- provider tokens --------------------------------------------------------------------
    rule(
        "aws_access_key_id",
        _S,
        _TOKEN,
        r"(?<![A-Z0-9])(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|AROA|APKA|A3T[A-Z0-9])"
        r"[A-Z0-9]{16}(?![A-Z0-9])",
        flags=0,
    ),
    rule(
        "github_token",
        _S,
        _TOKEN,
        r"(?<![A-Za-z0-9])(?:gh[pousr]_[A-Za-z0-9]{30,255}|github_pat_[A-Za-z0-9_]{22,255})",
        flags=0,
    ),
    rule(
        "gitlab_token",
        _S,
        _TOKEN,
        r"(?<![A-Za-z0-9])gl(?:pat|dt|rt|ptt|ft|imt|oas|cbt|soat|agent)-[A-Za-z0-9_-]{20,64}",
    ),
    rule("slack_token", _S, _TOKEN, r"(?<![A-Za-z0-9])xox[abposre]-[A-Za-z0-9-]{10,255}"),
    rule(
        "slack_webhook", _S, _TOKEN, r"hooks\.slack\.com/(?:services|workflows)/[A-Za-z0-9/_-]{8,}"
    ),
    rule(
        "discord_webhook",
        _S,
        _TOKEN,
        r"discord(?:app)?\.com/api/webhooks/\d{5,30}/[A-Za-z0-9_-]{20,}",
    ),
    rule(
        "openai_style_key",
        _S,
        _TOKEN,
        r"(?<![A-Za-z0-9])sk-(?P<tail>[A-Za-z0-9_-]{20,255})",
        flags=0,
        check=_openai_style,
    ),
    rule(
        "stripe_key",
        _S,
        _TOKEN,
        r"(?<![A-Za-z0-9])(?:(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{10,255}|whsec_[A-Za-z0-9]{20,})",
        flags=0,
    ),
    rule("google_api_key", _S, _TOKEN, r"AIza[0-9A-Za-z_-]{35}", flags=0),
    rule("google_oauth_token", _S, _TOKEN, r"(?<![A-Za-z0-9])ya29\.[0-9A-Za-z_-]{20,}", flags=0),
    rule(
        "gcp_service_account",
        _S,
        _TOKEN,
        r"\"(?:private_key_id|private_key)\"\s{0,4}:|\"type\"\s{0,4}:\s{0,4}\"service_account\"",
    ),
    rule("npm_token", _S, _TOKEN, r"(?<![A-Za-z0-9])npm_[A-Za-z0-9]{36}", flags=0),
    rule("pypi_token", _S, _TOKEN, r"(?<![A-Za-z0-9])pypi-Ag[A-Za-z0-9_-]{16,}", flags=0),
    rule(
        "huggingface_token",
        _S,
        _TOKEN,
        r"(?<![A-Za-z0-9])(?:hf_|api_org_)[A-Za-z0-9]{30,}",
        flags=0,
    ),
    rule(
        "sendgrid_key",
        _S,
        _TOKEN,
        r"(?<![A-Za-z0-9])SG\.[A-Za-z0-9_-]{16,64}\.[A-Za-z0-9_-]{16,64}",
        flags=0,
    ),
    rule(
        "discord_bot_token",
        _S,
        _TOKEN,
        r"(?<![A-Za-z0-9_-])[MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6,7}\.[A-Za-z0-9_-]{27,40}",
        flags=0,
    ),
    rule("mailgun_key", _S, _TOKEN, r"(?<![A-Za-z0-9])key-[0-9a-zA-Z]{32}(?![A-Za-z0-9])"),
    rule(
        "twilio_sid_or_key",
        _S,
        _TOKEN,
        r"(?<![A-Za-z0-9])(?:AC|SK)[0-9a-fA-F]{32}(?![A-Za-z0-9])",
        flags=0,
    ),
    rule("telegram_bot_token", _S, _TOKEN, r"(?<!\d)\d{8,10}:AA[A-Za-z0-9_-]{33}", flags=0),
    rule("shopify_token", _S, _TOKEN, r"(?<![A-Za-z0-9])shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}"),
    rule("digitalocean_token", _S, _TOKEN, r"(?<![A-Za-z0-9])do[oprt]_v1_[a-f0-9]{64}"),
    rule(
        "square_token",
        _S,
        _TOKEN,
        r"(?<![A-Za-z0-9])(?:sq0(?:atp|csp)-[0-9A-Za-z_-]{22,43}|EAAA[A-Za-z0-9_-]{60})",
        flags=0,
    ),
    rule(
        "vault_or_terraform_token",
        _S,
        _TOKEN,
        r"(?<![A-Za-z0-9])(?:hv[sb]\.[A-Za-z0-9_-]{24,}|[a-z0-9]{14}\.atlasv1\.[a-z0-9_=-]{60,})",
    ),
    rule(
        "saas_token",
        _S,
        _TOKEN,
        r"(?<![A-Za-z0-9])(?:dapi[a-f0-9]{32}|lin_api_[A-Za-z0-9]{40}|PMAK-[a-f0-9]{24}-[a-f0-9]{34}"
        r"|pul-[a-f0-9]{40}|gl(?:c|sa)_[A-Za-z0-9_=+/-]{32,}|NRAK-[A-Z0-9]{27}"
        r"|AGE-SECRET-KEY-1[0-9A-Z]{58}|sntry[su]_[A-Za-z0-9_=+/-]{30,}"
        r"|dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,44}|LTAI[A-Za-z0-9]{20}"
        r"|[0-9a-f]{32}-us\d{1,2}|ATATT3[A-Za-z0-9_=-]{100,}|EAA[CB][A-Za-z0-9]{30,}"
        r"|AAAAAAAAAAAAAAAAAAAAA[A-Za-z0-9%]{30,}|sl\.[A-Za-z0-9_-]{130,}"
        r"|[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34})",
        flags=0,
    ),
    rule(
        "jwt",
        _S,
        _TOKEN,
        r"(?<![A-Za-z0-9])eyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}",
        flags=0,
    ),
    rule(
        "token_prefix_fragment",
        _S,
        _TOKEN,
        r"(?<![A-Za-z0-9])(?:gh[pousr]_|github_pat_|glpat-|xox[abposr]-|sk-(?:proj-|ant-)?"
        r"|sk_live_|rk_live_|AKIA|ASIA|AIza|npm_|hf_|pypi-|SG\.|shpat_|dop_v1_|hvs\.|key-)"
        r"(?P<tail>[A-Za-z0-9_-]{6,255})",
        flags=0,
        check=_prefix_fragment,
    ),
    rule(
        "secret_fragment",
        _S,
        "secret.split",
        r"\b(?:(?:the\s+)?(?:rest|remainder|second\s+half|second\s+part|other\s+half|last\s+part"
        r"|last\s+half|final\s+part|next\s+part|first\s+half|first\s+part)\s+(?:of\s+(?:it|that"
        r"|the\s+[a-z]{1,12}|my\s+[a-z]{1,12})\s+)?(?:is|was|are|reads|:)"
        r"|(?:it\s+|that\s+)?(?:ends|continues|finishes|starts|begins)\s+with)\s{1,4}"
        r"(?P<v>[^\s]{4,256})",
        check=lambda m: (
            (any(c.isdigit() for c in m.group("v")) and any(c.isalpha() for c in m.group("v")))
            or random_looking(m.group("v"), min_length=8)
        ),
    ),
    # -- structured secrets -----------------------------------------------------------------
    rule(
        "private_key_block",
        _S,
        "secret.private_key",
        r"-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----|PuTTY-User-Key-File-\d",
        flags=0,
    ),
    rule(
        "connection_string",
        _S,
        "secret.connection_string",
        r"\b[a-z][a-z0-9+.-]{1,20}://[^\s:/@]{1,128}:[^\s@/]{1,256}@[^\s]{1,256}",
    ),
    rule(
        "card_number",
        _S,
        "secret.financial",
        r"(?<![\w-])\d(?:[ -]?\d){12,18}(?![\w-])",
        check=whole(luhn_valid),
    ),
    rule(
        "iban",
        _S,
        "secret.financial",
        r"(?<![A-Za-z0-9])[A-Za-z]{2}\d{2}(?:[ -]?[A-Za-z0-9]){11,30}",
        check=whole(iban_valid),
    ),
    rule(
        "us_ssn",
        _S,
        "secret.national_id",
        r"(?<![\d-])\d{3}[- ]\d{2}[- ]\d{4}(?![\d-])|\b(?:ssn|social\s+security(?:\s+number)?)"
        r"\b[^\d\n]{0,24}\d{3}-?\d{2}-?\d{4}(?!\d)",
        check=whole(ssn_valid),
    ),
    # -- high entropy -----------------------------------------------------------------------
    rule(
        "labelled_high_entropy",
        _S,
        "secret.high_entropy",
        r"\b(?:secret|token|key|password|passcode|credential|salt|signature|nonce)s?\b"
        rf"[^\n]{{0,40}}?(?<![{_TOKEN_CHARS}])(?P<v>[{_TOKEN_CHARS}]{{16,512}})",
        check=_labelled_value,
    ),
    rule(
        "labelled_hex",
        _S,
        "secret.high_entropy",
        r"\b(?:secret|token|key|password|salt|api|private|auth|sid|credential)s?\b[^\n]{0,40}?"
        r"(?<![0-9a-fA-F])[0-9a-fA-F]{32,128}(?![0-9a-fA-F])",
    ),
    rule(
        "unlabelled_high_entropy",
        _S,
        "secret.high_entropy",
        rf"(?<![{_TOKEN_CHARS}])[{_TOKEN_CHARS}]{{20,1024}}",
        flags=0,
        check=_unlabelled,
    ),
)

_PASSWORD_WORDS = (
    "password passwords passwort contrasena contrasenas passe senha senhas passcode passcodes "
    "passphrase passphrases pin pins secret secrets salt salts combination combinations phrase "
    "code codes pw pwd pws"
)
_NAME_WORDS = (
    "key keys token tokens secret secrets password passwords passwd pwd pass passphrase "
    "passcode credential credentials pin apikey accesstoken authtoken refreshtoken "
    "sessiontoken bearertoken secretkey privatekey accesskey accesskeyid accountkey "
    "clientsecret signingkey masterkey encryptionkey secretaccesskey"
)
_TOKEN_RULES = frozenset(
    [
        "aws_access_key_id",
        "github_token",
        "gitlab_token",
        "slack_token",
        "openai_style_key",
        "stripe_key",
        "google_api_key",
        "google_oauth_token",
        "npm_token",
        "pypi_token",
        "huggingface_token",
        "sendgrid_key",
        "discord_bot_token",
        "mailgun_key",
        "twilio_sid_or_key",
        "telegram_bot_token",
        "shopify_token",
        "digitalocean_token",
        "square_token",
        "vault_or_terraform_token",
        "saas_token",
        "jwt",
        "token_prefix_fragment",
        "unlabelled_high_entropy",
    ]
)
_GATES: dict[str, dict[str, object]] = {
    "credential_assignment": {"anchors": _NAME_WORDS, "requires_chars": ":="},
    "stated_password": {"anchors": _PASSWORD_WORDS},
    "label_then_value": {"anchors": _PASSWORD_WORDS},
    "dangling_label": {"anchors": _PASSWORD_WORDS + " key keys token tokens"},
    "value_then_label": {
        "anchors": _PASSWORD_WORDS + " key keys api token tokens seed login",
        "requires": (
            frozenset(
                [
                    "use",
                    "used",
                    "uses",
                    "using",
                    "set",
                    "chose",
                    "picked",
                    "have",
                    "had",
                    "keep",
                    "kept",
                    "made",
                    "typed",
                    "entered",
                ]
            ),
            frozenset(("as", "for")),
        ),
    },
    "value_is_my_password": {"anchors": _PASSWORD_WORDS},
    "set_password_to": {"anchors": _PASSWORD_WORDS},
    "seed_phrase": {"anchors": "seed recovery mnemonic backup wallet"},
    "card_security_code": {"anchors": "cvv cvv2 cvc cvc2 csc"},
    "bearer_token": {"anchors": "bearer"},
    "basic_auth": {"anchors": "basic"},
    "slack_webhook": {"substrings": ("hooks.slack.com",)},
    "discord_webhook": {"substrings": ("/api/webhooks/",)},
    "gcp_service_account": {"substrings": ('"private_key', '"type"')},
    "secret_fragment": {
        "anchors": "rest remainder half part ends continues finishes starts begins"
    },
    "private_key_block": {"substrings": ("-----BEGIN", "PuTTY-User-Key-File")},
    "connection_string": {"substrings": ("://",)},
    "card_number": {"shape": Shape.DIGITS},
    "iban": {"shape": Shape.DIGITS},
    "us_ssn": {"shape": Shape.DIGITS},
    "labelled_high_entropy": {"shape": Shape.TOKEN},
    "labelled_hex": {"shape": Shape.TOKEN},
}


def _gated(item: HazardRule) -> HazardRule:
    gate = dict(_GATES.get(item.name, {"shape": Shape.TOKEN}))
    assert item.name in _GATES or item.name in _TOKEN_RULES, item.name
    anchors = gate.pop("anchors", "")
    assert isinstance(anchors, str)
    return replace(item, anchors=frozenset(anchors.split()), **gate)  # type: ignore[arg-type]


_GATED = tuple(_gated(item) for item in _CATALOGUE)
_REDACTED = tuple(
    rule(
        f"redacted_{family.removeprefix('secret.')}",
        _S,
        family,
        re.escape(redaction_mask(family)),
        flags=0,
        substrings=(redaction_mask(family),),
    )
    for family in dict.fromkeys(item.family for item in _GATED)
)
"""A span masked when its message was recorded: its sentence stays refused, same family."""

SECRET_RULES: tuple[HazardRule, ...] = (*_GATED, *_REDACTED)
"""The secret catalogue (last: the redaction masks a recorded message carries)."""

__all__ = ["SECRET_RULES"]
