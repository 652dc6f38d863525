"""Export a trained network as a policy file the ``trained`` bot level plays
(:mod:`.policy`): ONNX, with the game, the layout's signature, the player count and a line
on how it was trained in its metadata.

Needs the ``train`` extra (PyTorch, onnx); playing the file needs only the ``rl`` extra.
:func:`export_module` takes any ``torch.nn.Module`` mapping a batch of observation tensors
to a batch of action scores; :func:`export_maskable_ppo` takes an sb3-contrib
``MaskablePPO`` (or a Stable-Baselines3 ``PPO``) model and exports its actor: the features,
the policy network and the action head, giving the logits the model masks and samples from.
"""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

from ..core import Game
from .layout import encoder_for
from .policy import META_GAME, META_LAYOUT, META_PLAYERS, META_TRAINED, layout_signature


def export_module(module: Any, game: Game, path: str | Path, trained: str = "") -> Path:
    """Write ``module`` (observations ``(batch, size)`` -> scores ``(batch, actions)``)
    to ``path`` as an ONNX policy for ``game``; returns the path."""
    import onnx
    import torch

    encoder = encoder_for(game)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    module = module.eval()
    example = torch.zeros((1, encoder.size), dtype=torch.float32)
    with torch.no_grad():
        out = module(example)
    if tuple(out.shape) != (1, game.num_actions):
        raise ValueError(
            f"the module gives scores of shape {tuple(out.shape)}, "
            f"not (1, {game.num_actions}) for {game.spec.name}"
        )
    with warnings.catch_warnings():
        # the TorchScript exporter: a single self-contained file in seconds, for these
        # small networks of linear layers and activations
        warnings.simplefilter("ignore", DeprecationWarning)
        torch.onnx.export(
            module,
            (example,),
            str(path),
            input_names=["obs"],
            output_names=["scores"],
            dynamic_axes={"obs": {0: "batch"}, "scores": {0: "batch"}},
            dynamo=False,
        )
    model = onnx.load(str(path))
    meta = {
        META_GAME: game.spec.id,
        META_LAYOUT: layout_signature(encoder),
        META_PLAYERS: str(game.players),
        META_TRAINED: trained,
    }
    del model.metadata_props[:]
    for key, value in meta.items():
        entry = model.metadata_props.add()
        entry.key, entry.value = key, value
    onnx.checker.check_model(model)
    onnx.save(model, str(path))
    return path


def actor(model: Any) -> Any:
    """The actor of a Stable-Baselines3 actor-critic model (MaskablePPO, PPO) as one
    ``torch.nn.Module``: features, policy network, action head -> logits."""
    import torch

    policy = model.policy

    class Actor(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.features = policy.pi_features_extractor
            self.mlp = policy.mlp_extractor
            self.head = policy.action_net

        def forward(self, obs: Any) -> Any:
            return self.head(self.mlp.forward_actor(self.features(obs)))

    return Actor()


def export_maskable_ppo(model: Any, game: Game, path: str | Path, trained: str = "") -> Path:
    """Export the actor of an sb3-contrib MaskablePPO (or SB3 PPO) model for ``game``."""
    return export_module(actor(model), game, path, trained)
