"""The performance campaign behind `make bench` (user/bench/run)."""
