"""
Extra canonicalization patterns for xDSL's `arith` ops, attached the way
MLIR attaches external models: `install()` adds a
`HasCanonicalizationPatternsTrait` to `arith.andi`, `arith.ori` and
`arith.xori` (via xDSL's `OpTraits.add_trait`), so the stock `canonicalize`
pass finds the i1 identities in
`maskopt.passes.canonicalization_patterns.arith_bool`.
"""

from xdsl.dialects import arith
from xdsl.traits import HasCanonicalizationPatternsTrait


class AndIBoolCanonicalization(HasCanonicalizationPatternsTrait):
    @classmethod
    def get_canonicalization_patterns(cls):
        from maskopt.passes.canonicalization_patterns.arith_bool import (
            AndIBoolIdentity,
        )

        return (AndIBoolIdentity(),)


class OrIBoolCanonicalization(HasCanonicalizationPatternsTrait):
    @classmethod
    def get_canonicalization_patterns(cls):
        from maskopt.passes.canonicalization_patterns.arith_bool import (
            OrIBoolIdentity,
        )

        return (OrIBoolIdentity(),)


class XOrIBoolCanonicalization(HasCanonicalizationPatternsTrait):
    @classmethod
    def get_canonicalization_patterns(cls):
        from maskopt.passes.canonicalization_patterns.arith_bool import (
            XOrIBoolIdentity,
            XOrINotCmpi,
        )

        return (XOrIBoolIdentity(), XOrINotCmpi())


_INSTALLED = False


def install() -> None:
    """Attach the traits once (idempotent)."""
    global _INSTALLED
    if _INSTALLED:
        return
    arith.AndIOp.traits.add_trait(AndIBoolCanonicalization())
    arith.OrIOp.traits.add_trait(OrIBoolCanonicalization())
    arith.XOrIOp.traits.add_trait(XOrIBoolCanonicalization())
    _INSTALLED = True
