"""
Extra canonicalization patterns for xDSL's `arith` ops, attached the way
MLIR attaches external models: `install()` adds a
`HasCanonicalizationPatternsTrait` to `arith.andi`, `arith.ori` and
`arith.xori` and `arith.select` (via xDSL's `OpTraits.add_trait`, next to
xDSL's own select patterns), so the stock `canonicalize` pass finds the i1
identities in `maskopt.passes.canonicalization_patterns.arith_bool`, and to
`arith.floordivsi`, `arith.remsi`, `arith.shrsi`, `arith.shli`, `arith.subi`,
`arith.cmpi`, `arith.extui` and the min/max ops for the integer folds in `maskopt.passes.canonicalization_patterns.arith_int`.

It also marks `arith.extsi` and `arith.extui` `Pure` (as in MLIR; xDSL 0.75
declares no effects for them), so dead extensions are erased by the greedy
rewriter and by dead-code elimination.
"""

from xdsl.dialects import arith
from xdsl.traits import HasCanonicalizationPatternsTrait, Pure


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


class SelectBoolCanonicalization(HasCanonicalizationPatternsTrait):
    @classmethod
    def get_canonicalization_patterns(cls):
        from maskopt.passes.canonicalization_patterns.arith_bool import (
            SelectI1ToAnd,
            SelectI1ToAndNot,
            SelectI1ToOr,
            SelectI1ToOrNot,
        )

        return (SelectI1ToOr(), SelectI1ToAnd(), SelectI1ToAndNot(), SelectI1ToOrNot())


class FloorDivSIFolds(HasCanonicalizationPatternsTrait):
    @classmethod
    def get_canonicalization_patterns(cls):
        from maskopt.passes.canonicalization_patterns.arith_int import (
            FloorDivSIByMinusOne,
            FloorDivSIConstantFold,
        )

        return (FloorDivSIConstantFold(), FloorDivSIByMinusOne())


class RemSIFolds(HasCanonicalizationPatternsTrait):
    @classmethod
    def get_canonicalization_patterns(cls):
        from maskopt.passes.canonicalization_patterns.arith_int import (
            RemSIByUnit,
            RemSIConstantFold,
        )

        return (RemSIConstantFold(), RemSIByUnit())


class ShRSIFolds(HasCanonicalizationPatternsTrait):
    @classmethod
    def get_canonicalization_patterns(cls):
        from maskopt.passes.canonicalization_patterns.arith_int import (
            ShRSIConstantFold,
        )

        return (ShRSIConstantFold(),)


class ShLIFolds(HasCanonicalizationPatternsTrait):
    @classmethod
    def get_canonicalization_patterns(cls):
        from maskopt.passes.canonicalization_patterns.arith_int import (
            ShLIConstantFold,
        )

        return (ShLIConstantFold(),)


class SubIFolds(HasCanonicalizationPatternsTrait):
    @classmethod
    def get_canonicalization_patterns(cls):
        from maskopt.passes.canonicalization_patterns.arith_int import SubISelf

        return (SubISelf(),)


class CmpiFolds(HasCanonicalizationPatternsTrait):
    @classmethod
    def get_canonicalization_patterns(cls):
        from maskopt.passes.canonicalization_patterns.arith_int import CmpiConstantFold

        return (CmpiConstantFold(),)


class MinMaxFolds(HasCanonicalizationPatternsTrait):
    @classmethod
    def get_canonicalization_patterns(cls):
        from maskopt.passes.canonicalization_patterns.arith_int import MinMaxConstantFold, MinMaxSelf

        return (MinMaxConstantFold(), MinMaxSelf())


class ExtendFolds(HasCanonicalizationPatternsTrait):
    @classmethod
    def get_canonicalization_patterns(cls):
        from maskopt.passes.canonicalization_patterns.arith_int import ExtendConstantFold

        return (ExtendConstantFold(),)


_INSTALLED = False


def install() -> None:
    """Attach the traits once (idempotent)."""
    global _INSTALLED
    if _INSTALLED:
        return
    arith.AndIOp.traits.add_trait(AndIBoolCanonicalization())
    arith.OrIOp.traits.add_trait(OrIBoolCanonicalization())
    arith.XOrIOp.traits.add_trait(XOrIBoolCanonicalization())
    arith.SelectOp.traits.add_trait(SelectBoolCanonicalization())
    arith.FloorDivSIOp.traits.add_trait(FloorDivSIFolds())
    arith.RemSIOp.traits.add_trait(RemSIFolds())
    arith.ShRSIOp.traits.add_trait(ShRSIFolds())
    arith.ShLIOp.traits.add_trait(ShLIFolds())
    arith.SubiOp.traits.add_trait(SubIFolds())
    arith.CmpiOp.traits.add_trait(CmpiFolds())
    arith.ExtUIOp.traits.add_trait(ExtendFolds())
    for minmax in (arith.MinSIOp, arith.MaxSIOp, arith.MinUIOp, arith.MaxUIOp):
        minmax.traits.add_trait(MinMaxFolds())
    for ext in (arith.ExtSIOp, arith.ExtUIOp):
        if not ext.has_trait(Pure):
            ext.traits.add_trait(Pure())
    _INSTALLED = True
