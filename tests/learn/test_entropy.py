"""The entropy over the legal actions: the illegal actions' terms dropped before their ``exp``
changes neither the value nor the gradient."""

from __future__ import annotations

import torch

from shadowtable.learn.network import ILLEGAL_LOGIT, masked_entropy


def test_the_entropy_and_its_gradient_are_those_of_the_plain_formula() -> None:
    generator = torch.Generator().manual_seed(0)
    raw = torch.randn(64, 40, generator=generator)
    mask = torch.rand(64, 40, generator=generator) < 0.3
    mask[:, 0] = True
    mask[1] = True  # a row with every action legal
    mask[2] = False
    mask[2, 5] = True  # one with a single legal action: entropy 0
    entropies, gradients = [], []
    for formula in ("plain", "masked"):
        logits = raw.masked_fill(~mask, ILLEGAL_LOGIT).requires_grad_(True)
        if formula == "plain":
            log_probs = torch.log_softmax(logits, dim=-1)
            entropy = -(log_probs.exp() * log_probs).masked_fill(~mask, 0.0).sum(-1)
        else:
            entropy = masked_entropy(logits, mask)
        entropy.sum().backward()
        assert logits.grad is not None
        entropies.append(entropy.detach())
        gradients.append(logits.grad)
    assert torch.equal(entropies[0], entropies[1]) and torch.equal(gradients[0], gradients[1])
    assert entropies[1][2] == 0.0 and entropies[1][1] > entropies[1][0] > 0.0
    assert gradients[1].abs().sum() > 0
