// Package git runs the git command for perfloop: the repository's top
// directory and revisions, scratch work trees of a commit (checked out
// detached, with the user's submodule checkouts and without the user's
// hooks, removed whatever state they are left in), the files and lines a
// change touched, and the commits of a history in git's order.
//
// Every command that writes to the repository is stopped with SIGTERM,
// never SIGKILL, so that an interrupted perfloop leaves no locked,
// half-written work tree behind.
package git
