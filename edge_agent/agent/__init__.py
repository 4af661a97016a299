"""The ReActXen agent family: react (with Self-Ask), review, reflect, distill, and xen (Algorithm 1)."""
