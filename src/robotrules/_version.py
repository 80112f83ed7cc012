"""The one source of the version: the package metadata, ``robotrules.__version__`` and
``robotrules --version`` all read it (setuptools reads it statically at build time)."""

__all__ = ["__version__"]

__version__ = "0.2.0"
