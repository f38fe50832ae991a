"""SS101 precision on released packages, from findings labelled by reading the code.

    python benchmarks/precision.py [--before REF] [--labels benchmarks/labels/ss101-corpus.tsv]

For each package of the labelled corpus: downloads its sdist into ~/.cache/stale-state/sdists, and builds
once a virtual environment holding every package of the corpus with its dependencies (and vulture 2.16)
under ~/.cache/stale-state/envs, never in the repository. Runs `stale-state --select SS101` over the
package folder, with the sdist's tests as readers (`--roots PACKAGE,TESTS`, the configuration the README
gives for a library) and `--python` pointing at that environment, so that the bases a package takes from
its dependencies are read. With `--before REF`, runs the tool as it was at REF too (from `git archive`, on
the same trees, with `--python` where that tool has it), so that both columns come from one run. Prints per
package: the findings, how many were labelled true, the precision, the "did you mean" hints given and how
many of them were judged right, and vulture's count of unused attributes on the same folder. Findings the
labels do not cover are listed: label them before quoting a figure.

The rules the labels follow, to give each labeller: `benchmarks/labels/RULES.md`.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import os
import re
import subprocess
import sys
import tarfile
import tempfile
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))
from corpora import CORPORA, sdist  # noqa: E402

LABELS = Path(__file__).resolve().parent / "labels" / "ss101-corpus.tsv"
VULTURE = "vulture==2.16"
# distribution -> (package folder, tests folder read as well, or None) inside the sdist
LAYOUT = {
    "scrapy": ("scrapy", "tests"), "celery": ("celery", "t"), "tornado": ("tornado", None),
    "paramiko": ("paramiko", "tests"), "jinja2": ("src/jinja2", "tests"), "sqlalchemy": ("lib/sqlalchemy", "test"),
    "luigi": ("luigi", "test"), "kombu": ("kombu", "t"),
    # the second corpus (issue 18's acceptance), labelled after the rules it measures were written
    "urllib3": ("src/urllib3", "test"), "trio": ("src/trio", None), "dulwich": ("dulwich", "tests"),
    "cherrypy": ("cherrypy", None), "pexpect": ("pexpect", "tests"), "falcon": ("falcon", "tests"),
    "watchdog": ("src/watchdog", "tests"),
    # the third corpus, chosen and frozen at 29a25e7 before any rule was written for it
    "apscheduler": ("src/apscheduler", "tests"), "asyncssh": ("asyncssh", "tests"),
    "websockets": ("src/websockets", None), "fsspec": ("fsspec", None), "pyparsing": ("pyparsing", "tests"),
    "markdown": ("markdown", "tests"), "uvicorn": ("uvicorn", "tests"), "pika": ("pika", None),
    "kazoo": ("kazoo", None), "redis": ("redis", "tests"), "pymongo": ("pymongo", "test"),
    "kafka-python": ("kafka", "test"), "pymodbus": ("pymodbus", None),
    # the fourth corpus, chosen and frozen once the rules learnt from the third were written
    "paho-mqtt": ("src/paho", "tests"), "xlsxwriter": ("xlsxwriter", None), "python-docx": ("src/docx", "tests"),
    "mutagen": ("mutagen", "tests"), "pdfminer.six": ("pdfminer", "tests"), "apache-libcloud": ("libcloud", None),
    "cmd2": ("cmd2", "tests"), "plumbum": ("plumbum", "tests"), "icalendar": ("src/icalendar", None),
    # the fifth corpus, frozen at f71190c, once the rules learnt from the fourth were written
    "python-can": ("can", "test"), "zeroconf": ("src/zeroconf", "tests"), "ldap3": ("ldap3", "test"),
    "rq": ("rq", "tests"), "marshmallow": ("src/marshmallow", "tests"), "ncclient": ("ncclient", "test"),
    "dramatiq": ("dramatiq", "tests"), "huey": ("huey", None), "netmiko": ("netmiko", None),
    "pyvisa": ("pyvisa", None), "lark": ("lark", "tests"), "textx": ("textx", "tests"),
    # the sixth corpus, frozen at fb63c9f, once the rules learnt from the fifth were written
    "reportlab": ("src/reportlab", "tests"), "pyglet": ("pyglet", "tests"), "pymysql": ("pymysql", "tests"),
    "eventlet": ("eventlet", "tests"), "pyramid": ("src/pyramid", "tests"), "invoke": ("invoke", "tests"),
    "asciimatics": ("asciimatics", "tests"), "ezdxf": ("src/ezdxf", "tests"), "praw": ("praw", "tests"),
    "transitions": ("transitions", "tests"), "mido": ("mido", "tests"), "impacket": ("impacket", "tests"),
    "webob": ("src/webob", "tests"), "bleach": ("bleach", "tests"),
    # the seventh corpus, frozen at 0058649, once the rules learnt from the sixth were written
    "pyserial": ("serial", "test"), "rpyc": ("rpyc", None), "pillow": ("src/PIL", "Tests"),
    "waitress": ("src/waitress", "tests"), "httpx": ("httpx", "tests"), "psutil": ("psutil", None),
    "pyasn1": ("pyasn1", "tests"), "GitPython": ("git", None), "pyftpdlib": ("pyftpdlib", "tests"),
    "pyelftools": ("elftools", "test"), "oauthlib": ("oauthlib", "tests"), "WTForms": ("src/wtforms", "tests"),
    "dpkt": ("dpkt", None), "biopython": ("Bio", "Tests"), "pydicom": ("src/pydicom", "tests"),
    "python-pptx": ("src/pptx", "tests"), "fpdf2": ("fpdf", None), "music21": ("music21", None),
    "scapy": ("scapy", None), "weasyprint": ("weasyprint", "tests"), "pysnmp": ("pysnmp", None),
    # the eighth corpus, frozen at df56893, once the rules learnt from the seventh were written
    "sqlparse": ("sqlparse", "test"), "tinydb": ("tinydb", "tests"), "pyusb": ("usb", "tests"),
    "smbprotocol": ("src/smbprotocol", "tests"), "bitstring": ("bitstring", "tests"),
    "jsonschema": ("jsonschema", None), "boltons": ("boltons", "tests"), "mistune": ("src/mistune", "tests"),
    "Genshi": ("genshi", None), "mongoengine": ("mongoengine", "tests"), "asyncua": ("asyncua", None),
    "slixmpp": ("slixmpp", None), "npyscreen": ("npyscreen", None), "salabim": ("salabim", "tests"),
    "feedparser": ("feedparser", "tests"), "mechanize": ("mechanize", "test"), "Pyro5": ("Pyro5", "tests"),
    "netaddr": ("netaddr", None),
    # the ninth corpus, frozen at this stop's start (d634864), with no rule written for it
    "pycparser": ("pycparser", "tests"), "docker": ("docker", None), "xlrd": ("xlrd", None),
    "behave": ("behave", "tests"), "python-dateutil": ("src/dateutil", "tests"),
    "cachetools": ("src/cachetools", "tests"), "sqlobject": ("sqlobject", None), "ply": ("ply", "test"),
    "stomp.py": ("stomp", None), "scons": ("SCons", None), "pyqtgraph": ("pyqtgraph", "tests"),
    "radon": ("radon", None), "tablib": ("src/tablib", "tests"), "cerberus": ("cerberus", None),
    "voluptuous": ("voluptuous", None), "colander": ("src/colander", "tests"),
    # the tenth corpus, frozen at f259f17, with no rule written for it
    "traitlets": ("traitlets", "tests"), "jupyter_client": ("jupyter_client", "tests"),
    "zeep": ("src/zeep", "tests"), "sanic": ("sanic", "tests"), "tomlkit": ("tomlkit", "tests"),
    "passlib": ("passlib", None), "h11": ("h11", None), "locust": ("locust", None), "tweepy": ("tweepy", None),
    "odfpy": ("odf", "tests"), "httplib2": ("httplib2", "tests"), "wsproto": ("src/wsproto", "tests"),
    "starlette": ("starlette", "tests"), "rdflib": ("rdflib", "test"), "xmlschema": ("xmlschema", "tests"),
    "chess": ("chess", None), "supervisor": ("supervisor", None), "markdown-it-py": ("markdown_it", "tests"),
    "msal": ("msal", "tests"), "pyinstaller": ("PyInstaller", "tests"), "discord.py": ("discord", "tests"),
    "spyne": ("spyne", None),
    # the eleventh corpus, frozen at 525ae74, to measure the tenth's rules on packages they were not made from
    "slack_sdk": ("slack_sdk", "tests"), "ecdsa": ("src/ecdsa", None), "cattrs": ("src/cattrs", "tests"),
    "typer": ("typer", "tests"), "beets": ("beets", "test"), "chameleon": ("src/chameleon", None),
    "nikola": ("nikola", "tests"), "python-socketio": ("src/socketio", "tests"),
    "python-engineio": ("src/engineio", "tests"), "aiosmtpd": ("aiosmtpd", None), "pyro4": ("src/Pyro4", "tests"),
    "nameko": ("nameko", "test"), "pudb": ("pudb", None), "pyee": ("pyee", "tests"), "automat": ("src/automat", None),
    # the twelfth corpus, frozen at 20a9f0f, to measure the eleventh's rules on packages they were not made from
    "structlog": ("src/structlog", "tests"), "sentry-sdk": ("sentry_sdk", "tests"), "rope": ("rope", "ropetest"),
    "hvac": ("hvac", "tests"), "anyio": ("src/anyio", "tests"), "pluggy": ("src/pluggy", "testing"),
    "matrix-nio": ("src/nio", None), "prometheus_client": ("prometheus_client", "tests"),
    "pyTelegramBotAPI": ("telebot", "tests"), "irc": ("irc", None), "pymemcache": ("pymemcache", None),
    "pg8000": ("src/pg8000", "test"), "bpython": ("bpython", None), "blessed": ("blessed", "tests"),
    "minio": ("minio", "tests"), "humanfriendly": ("humanfriendly", None), "xonsh": ("xonsh", "tests"),
    # the thirteenth corpus, frozen at 64d5daf, to measure the twelfth's rules on packages they were not made from
    "qtconsole": ("qtconsole", None), "aiogram": ("aiogram", "tests"), "moviepy": ("moviepy", "tests"),
    "pettingzoo": ("pettingzoo", "test"), "pykka": ("src/pykka", "tests"), "thespian": ("thespian", None),
    "arcade": ("arcade", None), "nibabel": ("nibabel", None), "lmfit": ("lmfit", "tests"),
    "canopen": ("canopen", "test"), "cantools": ("src/cantools", "tests"), "cassandra-driver": ("cassandra", None),
    "geopy": ("geopy", "test"), "execnet": ("src/execnet", "testing"), "pyudev": ("src/pyudev", "tests"),
    "pony": ("pony", None), "trimesh": ("trimesh", "tests"), "tenacity": ("tenacity", "tests"),
    "keystoneauth1": ("keystoneauth1", None),
    # the fourteenth corpus, frozen at b38d19e, to measure the thirteenth's rules on packages they were not made from
    "tortoise-orm": ("tortoise", "tests"), "aiokafka": ("aiokafka", None), "gmqtt": ("gmqtt", "tests"),
    "pyinfra": ("src/pyinfra", "tests"), "ansible-runner": ("src/ansible_runner", "test"),
    "kopf": ("kopf", "tests"), "s3transfer": ("s3transfer", "tests"), "authlib": ("authlib", None),
    "httpcore": ("httpcore", "tests"), "cliff": ("cliff", None), "holoviews": ("holoviews", None),
    "toga-core": ("src/toga", "tests"), "databases": ("databases", "tests"),
    "itsdangerous": ("src/itsdangerous", "tests"), "magicgui": ("src/magicgui", "tests"),
    "litestar": ("litestar", None), "nicegui": ("nicegui", None), "flower": ("flower", "tests"),
    "kajiki": ("kajiki", "tests"), "pywebview": ("webview", None), "datashader": ("datashader", None),
    # the fifteenth corpus, frozen at bb8544d, to measure the fourteenth's rules on packages they were not made from
    "hypercorn": ("src/hypercorn", "tests"), "asyncpg": ("asyncpg", "tests"), "jsonpickle": ("jsonpickle", "tests"),
    "psycopg": ("psycopg", None), "fonttools": ("Lib/fontTools", "Tests"), "pyopenssl": ("src/OpenSSL", "tests"),
    "exchangelib": ("exchangelib", None), "plexapi": ("plexapi", None), "spotipy": ("spotipy", None),
    "pychromecast": ("pychromecast", None), "zigpy": ("zigpy", "tests"), "imapclient": ("imapclient", "tests"),
    "strictyaml": ("strictyaml", None), "emcee": ("src/emcee", None), "pyatv": ("pyatv", "tests"),
    "ormar": ("ormar", "tests"),
    # the sixteenth corpus, frozen at 6853c71, to measure the fifteenth's rules on packages they were not made from
    "junos-eznc": ("lib/jnpr", None), "pyicloud": ("pyicloud", "tests"), "bellows": ("bellows", "tests"),
    "aiohomekit": ("aiohomekit", None), "aiomysql": ("aiomysql", "tests"), "beanie": ("beanie", None),
    "folium": ("folium", None), "aiosmtplib": ("src/aiosmtplib", "tests"), "mpmath": ("mpmath", None),
    "cssutils": ("cssutils", "tests"), "aiortc": ("src/aiortc", "tests"), "aioesphomeapi": ("aioesphomeapi", "tests"),
    "twitchio": ("twitchio", None), "disnake": ("disnake", None), "autobahn": ("src/autobahn", None),
    "pysaml2": ("src/saml2", None), "reactivex": ("reactivex", None), "suds-community": ("suds", "tests"),
    # the seventeenth corpus, frozen at 4bcc479, to measure the sixteenth's rules on packages they were not made from
    "pydal": ("pydal", "tests"), "yt-dlp": ("yt_dlp", "test"), "streamlink": ("src/streamlink", "tests"),
    "hikari": ("hikari", "tests"), "skyfield": ("skyfield", None), "pvlib": ("pvlib", "tests"),
    "pymunk": ("pymunk", None), "pyvista": ("pyvista", "tests"), "textblob": ("src/textblob", "tests"),
    "questionary": ("questionary", None), "requests-toolbelt": ("requests_toolbelt", "tests"),
    "pydub": ("pydub", "test"), "botocore": ("botocore", "tests"), "pretty_midi": ("pretty_midi", "tests"),
    # the eighteenth corpus, frozen at 5319f26, to measure the seventeenth's rules on packages they were not made from
    "geopandas": ("geopandas", None), "altair": ("altair", None), "azure-storage-blob": ("azure/storage/blob", "tests"),
    "google-cloud-storage": ("google/cloud/storage", "tests"), "pyrogram": ("pyrogram", "tests"),
    "uncertainties": ("uncertainties", "tests"), "astroplan": ("astroplan", None), "pyzmq": ("zmq", "tests"),
    "pyjwt": ("jwt", "tests"), "dagster": ("dagster", "dagster_tests"), "faker": ("faker", "tests"),
    "influxdb-client": ("influxdb_client", "tests"), "opensearch-py": ("opensearchpy", None),
    "imageio": ("imageio", "tests"),
    # the nineteenth corpus, frozen at 579a6b1, to measure the eighteenth's rules on packages they were not made from
    "python-gitlab": ("gitlab", "tests"), "jira": ("jira", None), "pygithub": ("github", "tests"),
    "stripe": ("stripe", "tests"), "motor": ("motor", "test"), "cookiecutter": ("cookiecutter", "tests"),
    "holidays": ("holidays", None), "astral": ("src/astral", "src/test"), "pydot": ("src/pydot", "test"),
    "graphviz": ("graphviz", "tests"),
    "zarr": ("src/zarr", "tests"), "metpy": ("src/metpy", "tests"), "buildbot": ("buildbot", None),
    # the twentieth corpus, frozen at 38d7d94, to measure the nineteenth's rules on packages they were not made from
    "selenium": ("selenium", None), "kedro": ("kedro", "tests"), "factory_boy": ("factory", "tests"),
    "twilio": ("twilio", None), "s3fs": ("s3fs", None), "hydra-core": ("hydra", "tests"),
    "dynaconf": ("dynaconf", "tests"), "smart_open": ("smart_open", None),
    "pyshacl": ("pyshacl", "test"), "haystack-ai": ("haystack", None), "pwntools": ("pwnlib", None),
    # the twenty-first corpus, frozen at 9ec5199, to measure the twentieth's rules on packages they were not made from
    "librosa": ("librosa", "tests"), "sendgrid": ("sendgrid", None),
    "pydantic-settings": ("pydantic_settings", "tests"),
    "gcsfs": ("gcsfs", None), "minigrid": ("minigrid", "tests"), "mss": ("src/mss", "src/tests"),
    "odmantic": ("odmantic", None), "specutils": ("specutils", None), "tifffile": ("tifffile", "tests"),
    "ibis-framework": ("ibis", None), "pyautogui": ("pyautogui", "tests"), "streamlit": ("streamlit", "tests"),
    "gradio": ("gradio", "test"), "elasticsearch": ("elasticsearch", None), "nbconvert": ("nbconvert", "tests"),
    "httpie": ("httpie", "tests"), "prefect": ("src/prefect", None), "nbformat": ("nbformat", "tests"),
    # the twenty-second corpus, frozen at b1a4a87, to measure the twenty-first's rules on packages they were not
    # made from
    "mlflow": ("mlflow", None), "numpyro": ("numpyro", "test"), "textdistance": ("textdistance", "tests"),
    "xgboost": ("xgboost", None), "flax": ("flax", "tests"), "optax": ("optax", None),
    "datasets": ("src/datasets", "tests"), "pdm": ("src/pdm", "tests"), "bandit": ("bandit", "tests"),
    "poetry": ("src/poetry", "tests"), "twine": ("twine", "tests"), "pipx": ("src/pipx", None),
    "hatch": ("src/hatch", "tests"), "loguru": ("loguru", None), "diskcache": ("diskcache", "tests"),
    "jsonargparse": ("jsonargparse", None), "mistletoe": ("mistletoe", "test"), "treq": ("src/treq", None),
    "glom": ("glom", None),
    # the twenty-third corpus
    "openai": ("src/openai", "tests"), "anthropic": ("src/anthropic", "tests"), "pandera": ("pandera", "tests"),
    "graphene": ("graphene", None), "ariadne": ("ariadne", None), "cohere": ("src/cohere", None),
    "dspy": ("dspy", "tests"), "llama-index-core": ("llama_index/core", None),
    "smolagents": ("src/smolagents", "tests"),
    # the twenty-fourth corpus, frozen at 6f81b4e
    "fabric": ("fabric", "tests"), "distributed": ("distributed", None), "alembic": ("alembic", "tests"),
    "black": ("src/black", "tests"), "nox": ("nox", "tests"), "websocket-client": ("websocket", None),
    "eyed3": ("eyed3", "tests"), "qrcode": ("qrcode", None), "gspread": ("gspread", None),
    "docutils": ("docutils", "test"), "python-telegram-bot": ("src/telegram", "tests"),
    # the twenty-fifth corpus, frozen at 8b0b64a
    "curio": ("curio", "tests"), "ZODB": ("src/ZODB", None), "jwcrypto": ("jwcrypto", None),
    "ldaptor": ("ldaptor", None), "cleo": ("src/cleo", "tests"), "pdfplumber": ("pdfplumber", "tests"),
    "xhtml2pdf": ("xhtml2pdf", "tests"), "pydle": ("pydle", None), "stevedore": ("stevedore", None),
    "dogpile.cache": ("dogpile", "tests"), "beaker": ("beaker", None),
    # the twenty-sixth corpus, frozen at 32bbdc5
    "arq": ("arq", "tests"), "thriftpy2": ("thriftpy2", "tests"), "social-auth-core": ("social_core", None),
    "splinter": ("splinter", None), "nose2": ("nose2", None), "testfixtures": ("src/testfixtures", "tests"),
    "httpretty": ("httpretty", "tests"), "vcrpy": ("vcr", "tests"), "factory-boy": ("factory", "tests"),
    "mimesis": ("mimesis", "tests"), "faust-streaming": ("faust", "tests"),
    "requests-oauthlib": ("requests_oauthlib", "tests"), "clize": ("clize", None), "pywinrm": ("winrm", None),
    # the twenty-seventh corpus, frozen at 0713604
    "keyring": ("keyring", None), "instaloader": ("instaloader", None), "gallery-dl": ("gallery_dl", "test"),
    "SpeechRecognition": ("speech_recognition", None), "pyppeteer": ("pyppeteer", None),
    "parsel": ("parsel", "tests"), "newspaper3k": ("newspaper", None), "goose3": ("goose3", "tests"),
    "sumy": ("sumy", None), "jieba": ("jieba", "test"), "oauth2client": ("oauth2client", "tests"),
    "janome": ("src/janome", None), "TurboGears2": ("tg", "tests"),
    "gpiozero": ("gpiozero", "tests"), "pyroute2": ("pyroute2", "tests"), "circus": ("circus", None),
    "soco": ("soco", "tests"), "python-kasa": ("kasa", "tests"), "pylast": ("src/pylast", "tests"),
    "warcio": ("warcio", "test"), "volatility3": ("volatility3", None),
    "sacremoses": ("sacremoses", None),
    # the twenty-eighth corpus, frozen at 57a034a
    "myhdl": ("myhdl", None), "amaranth": ("amaranth", None), "pyocd": ("pyocd", "test"),
    "pymeasure": ("pymeasure", "tests"), "esptool": ("esptool", None), "proxmoxer": ("proxmoxer", "tests"),
    "openstacksdk": ("openstack", None), "intervaltree": ("intervaltree", "test"),
    "sortedcontainers": ("sortedcontainers", None), "pyrsistent": ("pyrsistent", "tests"),
    "freezegun": ("freezegun", "tests"), "pyfakefs": ("pyfakefs", None), "mechanicalsoup": ("mechanicalsoup", "tests"),
    "feedgen": ("feedgen", "tests"), "tinytag": ("tinytag", None), "blinker": ("src/blinker", "tests"),
    "pywebio": ("pywebio", None), "pylatex": ("pylatex", "tests"),
    "caldav": ("caldav", "tests"), "radicale": ("radicale", None), "py7zr": ("py7zr", None),
    "python-escpos": ("src/escpos", "test"),
    # the twenty-ninth corpus, frozen at 4d3a63c
    "python-ivi": ("ivi", None), "pylogix": ("pylogix", None),
    "pycomm3": ("pycomm3", None), "opcua": ("opcua", None), "pyads": ("src/pyads", None),
    "bacpypes3": ("bacpypes3", None), "pyshark": ("pyshark", None), "exabgp": ("src/exabgp", "tests"),
    "ttp": ("ttp", None), "xlwt": ("xlwt", "tests"), "ezodf": ("ezodf", "tests"), "drawsvg": ("drawsvg", None),
    "esper": ("esper", "tests"), "pytmx": ("pytmx", None), "mopidy": ("mopidy", "tests"),
    "python-mpd2": ("mpd", None), "transmission-rpc": ("transmission_rpc", None),
    "qbittorrent-api": ("src/qbittorrentapi", "tests"), "udsoncan": ("udsoncan", "test"),
    "can-isotp": ("isotp", "test"), "python-statemachine": ("statemachine", "tests"),
    "neo4j": ("src/neo4j", None), "py2neo": ("py2neo", None), "flask-login": ("src/flask_login", "tests"),
    "pyexcel": ("pyexcel", "tests"),
    # the thirtieth corpus, frozen at 7819a57
    "mastodon.py": ("mastodon", "tests"), "aiocoap": ("aiocoap", "tests"), "petl": ("petl", None),
    "agate": ("agate", "tests"), "pdfrw": ("pdfrw", "tests"), "borb": ("borb", "tests"), "taskiq": ("taskiq", "tests"),
    "webexteamssdk": ("webexteamssdk", None), "pysmi": ("pysmi", None), "aioimaplib": ("aioimaplib", None),
    "python-jose": ("jose", "tests"), "audioread": ("audioread", None), "masonite-orm": ("src/masoniteorm", None),
    "umongo": ("src/umongo", "tests"), "pymodm": ("pymodm", "test"), "hvac": ("hvac", "tests"),
    "jenkinsapi": ("jenkinsapi", "jenkinsapi_tests"), "atlassian-python-api": ("atlassian", "tests"),
    "py-trello": ("trello", "test"), "zenpy": ("zenpy", None), "pymisp": ("pymisp", "tests"), "stix2": ("stix2", None),
    "dnslib": ("dnslib", None), "python-whois": ("whois", "test"), "shodan": ("shodan", "tests"),
    # the thirty-first corpus, frozen at a9356d0
    "Cheetah3": ("Cheetah", None), "arrow": ("arrow", "tests"), "camelot-py": ("camelot", "tests"),
    "construct": ("construct", "tests"), "deform": ("deform", None), "gevent": ("src/gevent", None),
    "hachoir": ("hachoir", "tests"), "hug": ("hug", None), "klein": ("src/klein", None),
    "morepath": ("morepath", None), "pyeapi": ("pyeapi", "test"), "pynetbox": ("pynetbox", "tests"),
    "pyotp": ("src/pyotp", None), "python-barcode": ("barcode", "tests"), "python-keycloak": ("src/keycloak", None),
    "PyX": ("pyx", None), "segno": ("segno", "tests"), "svglib": ("src/svglib", "tests"),
    "textfsm": ("textfsm", "tests"), "transaction": ("src/transaction", None),
    "zope.interface": ("src/zope/interface", None),
    # the thirty-second corpus, frozen at 02d55e5
    "PySimpleSOAP": ("pysimplesoap", None), "aioquic": ("src/aioquic", "tests"),
    "bibtexparser": ("bibtexparser", "tests"), "cairosvg": ("cairosvg", None), "chevron": ("chevron", None),
    "daphne": ("daphne", "tests"), "dendropy": ("src/dendropy", None), "docxtpl": ("docxtpl", None),
    "elementpath": ("elementpath", "tests"), "ete3": ("ete3", None), "gffutils": ("gffutils", None),
    "h2": ("src/h2", "tests"), "hpack": ("src/hpack", "tests"), "premailer": ("premailer", None),
    "pronto": ("pronto", "tests"), "pybtex": ("src/pybtex", "tests"), "pyexcel-io": ("pyexcel_io", "tests"),
    "pyfaidx": ("pyfaidx", "tests"), "pystache": ("pystache", None), "python-nmap": ("nmap", None),
    "rethinkdb": ("rethinkdb", "tests"), "tinycss2": ("tinycss2", "tests"), "txaio": ("src/txaio", "tests"),
    # the thirty-third corpus, frozen at 7e8b4f3
    "asn1crypto": ("asn1crypto", None), "baron": ("baron", "tests"), "bowler": ("bowler", None),
    "coconut": ("coconut", None), "cocos2d": ("cocos", "utest"), "fissix": ("fissix", None), "hy": ("hy", "tests"),
    "lektor": ("lektor", "tests"), "limnoria": ("src", "test"), "prospector": ("prospector", None),
    "ptyprocess": ("ptyprocess", "tests"), "pyfiglet": ("pyfiglet", None), "pygame-gui": ("pygame_gui", None),
    "pysdl2": ("sdl2", None), "pythran": ("pythran", None), "redbaron": ("redbaron", "tests"),
    "sly": ("src/sly", "tests"), "sopel": ("sopel", None), "ursina": ("ursina", None), "wily": ("src/wily", "test"),
    # the thirty-fourth corpus, frozen at 7371525
    "abjad": ("abjad", None), "apprise": ("apprise", "tests"), "cairocffi": ("cairocffi", None),
    "customtkinter": ("customtkinter", None), "discogs-client": ("discogs_client", None), "flexx": ("flexx", None),
    "guizero": ("guizero", "tests"), "mingus": ("mingus", None),
    "musicbrainzngs": ("musicbrainzngs", "test"), "nevergrad": ("nevergrad", None),
    "pygubu": ("src/pygubu", "tests"), "pyrate-limiter": ("pyrate_limiter", "tests"), "pyswarms": ("pyswarms", None),
    "pytube": ("pytube", "tests"), "pyvo": ("pyvo", None), "remi": ("remi", None), "spotdl": ("spotdl", "tests"),
    "tkintermapview": ("tkintermapview", None), "ttkbootstrap": ("src/ttkbootstrap", "tests"),
    # the thirty-fifth corpus, frozen at b83fa37
    "commonmark": ("commonmark", None), "dacite": ("dacite", "tests"), "deluge": ("deluge", None),
    "glances": ("glances", "tests"), "i3ipc": ("i3ipc", None), "justext": ("justext", "tests"),
    "mitogen": ("mitogen", "tests"),
    "ptpython": ("src/ptpython", "tests"), "pyquery": ("pyquery", "tests"), "pywal": ("pywal", "tests"),
    "ranger-fm": ("ranger", None), "s-tui": ("s_tui", "tests"), "sqlite-utils": ("sqlite_utils", "tests"),
    "trafilatura": ("trafilatura", "tests"), "typeguard": ("src/typeguard", "tests"),
    "wikipedia": ("wikipedia", "tests"),
    # the thirty-sixth corpus, frozen at 6bbb588
    "apptools": ("apptools", None), "csvkit": ("csvkit", "tests"), "eel": ("eel", None),
    "leather": ("leather", "tests"), "meshio": ("src/meshio", "tests"), "ming": ("ming", None),
    "molotov": ("molotov", None), "parsimonious": ("parsimonious", None), "pretty-midi": ("pretty_midi", "tests"),
    "pyface": ("pyface", None), "pygal": ("pygal", None), "pynetdicom": ("pynetdicom", None), "pyte": ("pyte", "tests"),
    "qtawesome": ("qtawesome", None), "robotframework": ("src/robot", None), "traitsui": ("traitsui", None),
    "vedo": ("vedo", None),
    # the thirty-seventh corpus, frozen at 857f4f5
    "PyPDF2": ("PyPDF2", None), "alive-progress": ("alive_progress", None), "buildozer": ("buildozer", "tests"),
    "clint": ("clint", None), "durus": ("durus", "test"), "enlighten": ("enlighten", "tests"), "halo": ("halo", None),
    "hvplot": ("hvplot", None), "ipwhois": ("ipwhois", None), "marko": ("marko", "tests"), "pdfkit": ("pdfkit", None),
    "plotnine": ("plotnine", "tests"), "progressbar2": ("progressbar", "tests"), "pyhf": ("src/pyhf", None),
    "pypandoc": ("pypandoc", "tests"), "pyscroll": ("pyscroll", None), "pysolar": ("pysolar", "test"),
    "thorpy": ("thorpy", None), "timezonefinder": ("timezonefinder", "tests"), "uproot": ("src/uproot", "tests"),
    "yake": ("yake", "tests"), "yaspin": ("yaspin", "tests"),
    # the thirty-eighth corpus, frozen at 3e38159
    "argh": ("src/argh", "tests"), "harlequin": ("src/harlequin", None), "mail-parser": ("src/mailparser", "tests"),
    "nextcord": ("nextcord", None), "opsdroid": ("opsdroid", None), "rasa-sdk": ("rasa_sdk", None),
    "rich-click": ("src/rich_click", "tests"), "slack-bolt": ("slack_bolt", None),
    "trogon": ("trogon", None), "visidata": ("visidata", None), "yagmail": ("yagmail", "tests"),
    # the thirty-ninth corpus, frozen at 3e38159
    "broadlink": ("broadlink", None), "pyhomematic": ("pyhomematic", "tests"), "pylutron": ("pylutron", "tests"),
    "python-miio": ("miio", None), "python-vxi11": ("vxi11", None), "pyvisa-py": ("pyvisa_py", None),
    "pywemo": ("pywemo", None), "qcodes": ("src/qcodes", "tests"), "tekore": ("src/tekore", "tests"),
    # the fortieth corpus, frozen at 40a6c82 (a distribution of one module: its file)
    "canmatrix": ("src/canmatrix", "tests"), "flet": ("src/flet", "tests"), "ipyleaflet": ("ipyleaflet", None),
    "memory-profiler": ("memory_profiler.py", None), "meson": ("mesonbuild", None),
    "minimalmodbus": ("minimalmodbus.py", None), "objgraph": ("objgraph.py", None), "pygatt": ("pygatt", "tests"),
    "pyinstrument": ("pyinstrument", "test"), "pympler": ("pympler", "test"), "pysimplegui": ("PySimpleGUI", None),
    "python-mpv": ("mpv.py", None), "sounddevice": ("src/sounddevice.py", None),
    # the forty-first corpus, frozen at 601e270
    "apischema": ("apischema", None), "dataclass-wizard": ("dataclass_wizard", "tests"),
    "dataclasses-json": ("dataclasses_json", None), "fiddle": ("fiddle", None), "gin-config": ("gin", None),
    "inspyred": ("inspyred", "tests"), "mashumaro": ("mashumaro", "tests"), "ml-collections": ("ml_collections", None),
    "platypus-opt": ("platypus", None), "pygad": ("pygad", "tests"), "pyserde": ("serde", "tests"),
    "sacred": ("sacred", "tests"), "scikit-optimize": ("skopt", None), "simple-parsing": ("simple_parsing", "test"),
    "tyro": ("src/tyro", "tests"),
}
# distributions labelled by a seeded random sample of their findings (plus every finding with a hint): the
# precision is that of the sample, and their other findings are not listed as unlabelled
SAMPLED = {
    "apache-libcloud": "55 of 172 unhinted findings, random.seed(18), and both hinted ones",
    # one random.seed(20261201), drawn in the order of the names: impacket first, then pyglet
    "impacket": "35 of 87 unhinted findings, and the 4 hinted ones",
    "pyglet": "40 of 132 unhinted findings, and both hinted ones",
    # one random.seed(20261203), drawn in the order of the names: biopython, fpdf2, music21, scapy
    "biopython": "35 of 116 unhinted findings, and the 10 hinted ones",
    "fpdf2": "35 of 84 findings (none hinted)",
    "music21": "35 of 679 unhinted findings, and the 4 hinted ones",
    "scapy": "35 of 74 unhinted findings, and the hinted one",
    # random.seed(20261202)
    "slack_sdk": "40 of 281 findings (none hinted)",
    # random.seed(20261205)
    "pyTelegramBotAPI": "40 of 80 findings (none hinted)",
    # the twenty-third corpus: every finding new since 4c2e2bb, and one random.seed(20261204) sample of 25 of
    # those it had, drawn openai first
    "openai": "the 45 findings new since 4c2e2bb and 25 of its 299 others (none hinted)",
    "anthropic": "the 64 findings new since 4c2e2bb and 25 of its 339 others (none hinted)",
    # the twenty-eighth corpus: one random.seed(20261206) sample of 20 unhinted findings each at 57a034a, drawn
    # openstacksdk first, then pymeasure, then pyocd; and every finding pymeasure keeps after it
    "openstacksdk": "20 of 43 findings (none hinted)",
    "pymeasure": "20 of 173 unhinted findings at 57a034a and the hinted one; all 34 findings after",
    "pyocd": "20 of 74 findings (none hinted)",
    # the twenty-ninth corpus: one random.seed(20261207) sample of 30 unhinted findings at 4d3a63c
    "python-ivi": "30 of 152 unhinted findings at 4d3a63c and the 3 hinted ones",
    # the thirtieth corpus: one random.seed(20261208) sample of 30 of its findings at 7819a57
    "webexteamssdk": "30 of 109 findings at 7819a57 (none hinted)",
    # the thirty-first corpus: one random.seed(20261209) draw at a9356d0, PyX first, then hachoir
    "PyX": "30 of 173 unhinted findings at a9356d0, and the hinted one",
    "hachoir": "30 of 176 findings at a9356d0 (none hinted)",
    # the thirty-second corpus: one random.seed(20261210) draw at 02d55e5, dendropy first, then ete3
    "dendropy": "30 of 87 unhinted findings at 02d55e5, and the hinted one",
    "ete3": "30 of 60 unhinted findings at 02d55e5, and the 2 hinted ones",
    # the thirty-third corpus: one random.seed(20261211) draw at 7e8b4f3
    "ursina": "30 of 76 unhinted findings at 7e8b4f3, and the 11 hinted ones",
    # the thirty-sixth corpus: one random.seed(20261205) draw at 6bbb588
    "vedo": "30 of 77 unhinted findings at 6bbb588, and the 2 hinted ones",
    # the thirty-ninth corpus: one random.seed(20261206) draw at 3e38159
    "qcodes": "30 of 51 unhinted findings at 3e38159, and the 5 hinted ones",
    # the fortieth corpus: one random.seed(20261207) draw at 40a6c82
    "pysimplegui": "30 of 57 unhinted findings at 40a6c82, and the hinted one",
}
HINT = re.compile(r"did you mean '([^']+)'")


@dataclass
class Label:
    verdict: str
    hints: dict[str, str] = field(default_factory=dict)  # hint text -> "right" or "wrong"


def read_labels(path: Path) -> dict[tuple[str, str], Label]:
    labels = {}
    with path.open(encoding="utf-8") as file:
        for row in csv.DictReader(file, delimiter="\t"):
            hints = dict(item.split("=", 1) for item in row["hints_judged"].split(";") if item)
            labels[row["package"], row["location"]] = Label(row["verdict"], hints)
    return labels


def environment(specs: list[str]) -> Path:
    """One environment with every package of the corpus and its dependencies, and vulture."""
    wanted = sorted([*specs, VULTURE])
    folder = CORPORA.parent / "envs" / f"ss101-corpus-{hashlib.sha256(' '.join(wanted).encode()).hexdigest()[:12]}"
    if not (folder / "complete").is_file():
        subprocess.run([sys.executable, "-m", "venv", "--clear", str(folder)], check=True)
        subprocess.run([folder / "bin" / "python", "-m", "pip", "install", "--quiet", *wanted], check=True)
        (folder / "complete").write_text("\n".join(wanted))
    return folder


def tool_at(ref: str, into: Path) -> Path:
    """The package as it was at `ref`, to run with PYTHONPATH."""
    archive = into / "tool.tar"
    subprocess.run(["git", "-C", str(REPO), "archive", "-o", str(archive), ref, "flake8_stale_state"], check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(into, filter="data")
    return into


def ss101(tree: Path, folder: str, tests: str | None, python: Path | None, tool: Path | None) -> list[str]:
    roots = ["--roots", f"{folder},{tests}"] if tests and (tree / tests).is_dir() else []
    environment_options = ["--python", str(python)] if python else []
    env = {"PYTHONPATH": str(tool)} if tool else {}
    result = subprocess.run(
        [sys.executable, "-m", "flake8_stale_state", "--no-cache", "--select", "SS101", *roots,
         *environment_options, folder],
        cwd=tree, capture_output=True, text=True, env={**_clean_environment(), **env},
    )
    found = [line for line in result.stdout.splitlines() if ": SS101 " in line]
    # 2 where files could not be analysed (a template that is not Python): the others' findings stand
    unanalysed = [line for line in result.stderr.splitlines() if ": could not analyse this file: " in line]
    if result.returncode == 2 and unanalysed:
        print(*unanalysed, sep="\n", file=sys.stderr)
    elif result.returncode not in (0, 1) or result.returncode == 1 and not found:  # 1 without findings: no tool
        raise SystemExit(f"stale-state failed on {tree / folder}: {result.stderr.strip()}")
    return found


def _clean_environment() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}


def vulture_count(tree: Path, folder: str, python: Path) -> int:
    result = subprocess.run([python, "-m", "vulture", "--min-confidence", "0", folder],
                            cwd=tree, capture_output=True, text=True)
    return sum("unused attribute" in line for line in result.stdout.splitlines())


@dataclass
class Column:
    findings: int = 0
    true: int = 0
    hints: int = 0
    hints_right: int = 0
    unlabelled: list[str] = field(default_factory=list)
    outside_sample: int = 0

    def add(self, spec: str, lines: list[str], labels: dict[tuple[str, str], Label]) -> None:
        for line in lines:
            location = line.split(": SS101 ")[0]
            label = labels.get((spec, location))
            hint = HINT.search(line)
            self.findings += 1
            if label is None:
                if spec.split("==")[0] in SAMPLED:
                    self.outside_sample += 1
                else:
                    self.unlabelled.append(f"{spec}  {line}")
                continue
            self.true += label.verdict == "true"
            if hint:
                self.hints += 1
                judged = label.hints.get(hint.group(1))
                if judged is None:
                    self.unlabelled.append(f"{spec}  hint not judged: {line}")
                self.hints_right += judged == "right"

    def precision(self) -> str:
        labelled = (self.findings - self.outside_sample
                    - sum(not u.split("  ", 1)[1].startswith("hint") for u in self.unlabelled))
        return f"{100 * self.true / labelled:.0f}%" if labelled else "-"

    def cells(self) -> str:
        return f"{self.findings} | {self.true} | {self.precision()} | {self.hints} | {self.hints_right}"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--before", help="a git ref of this repository to measure too")
    parser.add_argument("--labels", type=Path, default=LABELS)
    args = parser.parse_args()
    labels = read_labels(args.labels)
    specs = sorted({spec for spec, _ in labels})
    python = environment(specs) / "bin" / "python"
    columns: dict[str, dict[str, Column]] = defaultdict(dict)
    with tempfile.TemporaryDirectory() as scratch:
        before_tool = tool_at(args.before, Path(scratch)) if args.before else None
        before_knows_python = bool(before_tool) and (before_tool / "flake8_stale_state" / "environment.py").is_file()
        head = ("| package | files | vulture 2.16 unused attributes | "
                + ("SS101 before | true | precision | hints | right | " if before_tool else "")
                + "SS101 | true | precision | hints | right |")
        print(head)
        print("|" + "---|" * (head.count("|") - 1))
        totals = {"before": Column(), "after": Column()}
        for spec in specs:
            name, version = spec.split("==")
            folder, tests = LAYOUT[name]
            tree = sdist(name, version)
            files = 1 if (tree / folder).is_file() else sum(1 for _ in (tree / folder).rglob("*.py"))
            row = [spec, str(files), str(vulture_count(tree, folder, python))]
            if before_tool:
                # a tool older than `--python` read standard-library bases only
                before = ss101(tree, folder, tests, python if before_knows_python else None, before_tool)
                for column in (columns[spec].setdefault("before", Column()), totals["before"]):
                    column.add(spec, before, labels)
                row.append(columns[spec]["before"].cells())
            after = ss101(tree, folder, tests, python, None)
            for column in (columns[spec].setdefault("after", Column()), totals["after"]):
                column.add(spec, after, labels)
            row.append(columns[spec]["after"].cells())
            print("| " + " | ".join(row) + " |")
        total = ["all", "", ""] + ([totals["before"].cells()] if before_tool else []) + [totals["after"].cells()]
        print("| " + " | ".join(total) + " |")
    unlabelled = [u for column in totals.values() for u in column.unlabelled]
    if unlabelled:
        print("\nnot labelled yet:")
        print("\n".join(sorted(set(unlabelled))))
    return 1 if unlabelled else 0


if __name__ == "__main__":
    sys.exit(main())
