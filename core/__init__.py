"""Pure, deterministic game engines and computer players. Knows nothing of Telegram, Redis or Pillow."""
