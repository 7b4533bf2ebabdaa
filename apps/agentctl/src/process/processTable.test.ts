import { describe, expect, it } from 'vitest';
import { descendantsOf, parsePsLine, parseStat } from './processTable.js';

describe('process table parsing', () => {
  it('parses stat lines whose command name has spaces and parentheses', () => {
    expect(parseStat('4242 (my (weird) name) S 17 4242 4242 0 -1')).toEqual({ pid: 4242, ppid: 17, pgid: 4242, state: 'S', start: '' });
    expect(parseStat('garbage')).toBeUndefined();
  });

  it('reads the start time (field 22), which guards against pid reuse', () => {
    const line = '77 (node) R 1 70 70 0 -1 4194560 100 0 0 0 5 1 0 0 20 0 11 0 987654 1000000 500';
    expect(parseStat(line)).toEqual({ pid: 77, ppid: 1, pgid: 70, state: 'R', start: '987654' });
  });

  it('parses ps rows, whose start time (lstart) holds spaces', () => {
    expect(parsePsLine('  501     1   501 Ss   Mon Jan  1 10:00:00 2024')).toEqual({
      pid: 501,
      ppid: 1,
      pgid: 501,
      state: 'S',
      start: 'Mon Jan 1 10:00:00 2024',
    });
    expect(parsePsLine('')).toBeUndefined();
  });
});

describe('descendants', () => {
  it('walks descendants breadth first and survives cycles', () => {
    const entries = [
      { pid: 10, ppid: 1, state: 'S' },
      { pid: 11, ppid: 10, state: 'S' },
      { pid: 12, ppid: 11, state: 'S' },
      { pid: 13, ppid: 10, state: 'S' },
      { pid: 20, ppid: 1, state: 'S' },
      { pid: 30, ppid: 31, state: 'S' },
      { pid: 31, ppid: 30, state: 'S' },
    ];
    expect(descendantsOf(10, entries).map((e) => e.pid)).toEqual([11, 13, 12]);
    expect(descendantsOf(30, entries).map((e) => e.pid)).toEqual([31]);
  });

  it('adds group members re-parented away from the root, and their children, but no zombies', () => {
    const entries = [
      { pid: 10, ppid: 1, pgid: 10, state: 'S' },
      { pid: 11, ppid: 10, pgid: 10, state: 'S' },
      { pid: 12, ppid: 1, pgid: 10, state: 'S' }, // its parent exited: init adopted it, the group kept it
      { pid: 13, ppid: 12, pgid: 10, state: 'S' },
      { pid: 14, ppid: 10, pgid: 10, state: 'Z' },
      { pid: 15, ppid: 1, pgid: 15, state: 'S' },
    ];
    expect(descendantsOf(10, entries).map((e) => e.pid)).toEqual([11, 12, 13]);
  });

  it('follows parent links that point forward after pid wrap-around', () => {
    const entries = [
      { pid: 3, ppid: 900, state: 'S' },
      { pid: 900, ppid: 500, state: 'S' },
      { pid: 500, ppid: 1, state: 'S' },
    ];
    expect(descendantsOf(500, entries).map((e) => e.pid)).toEqual([900, 3]);
  });
});
