/**
 * Test support: a tiny installer look-alike for process-tree tests. A shell that starts a sleeping
 * child, a grandchild, and one descendant that leaves the process group with setsid (as a
 * daemonizing helper would), then prints `started`.
 */
export const TREE_SCRIPT = `
sleep 300 &
sh -c 'sleep 300 & wait' &
setsid sleep 300 &
echo started
wait
`;
