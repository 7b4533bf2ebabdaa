/**
 * Test support: a tiny installer look-alike for process-tree tests. A shell that starts a sleeping
 * child, a grandchild, and one descendant that leaves the process group with setsid (as a
 * daemonizing helper would), then prints `started`. The escapee calls setsid a moment after it
 * exists, as such a helper does after its fork: a test that sees four descendants has not yet seen
 * one outside the group, and must wait for that (one that did not failed in CI under load).
 */
export const TREE_SCRIPT = `
sleep 300 &
sh -c 'sleep 300 & wait' &
sh -c 'sleep 0.2; exec setsid sleep 300' &
echo started
wait
`;
