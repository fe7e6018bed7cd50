namespace DiagExt.Core.Detectors.DictCycle;

/// <summary>
/// Classifies the chains of one Dictionary/HashSet in O(n + B) time and about 3n bits of state
/// (n = used entries, B = buckets). Every loop is bounded: each step marks a bit that is never unmarked
/// in the same phase, so a hostile image cannot make it run longer or allocate more than its arrays.
/// </summary>
public static class HashTableClassifier
{
    /// <summary>Indices and buckets listed per defect; counts beyond this are given as totals.</summary>
    public const int MaxListed = 64;

    /// <summary>Cycles reported one by one; further cycles are counted in the last one's detail.</summary>
    public const int MaxCycles = 64;

    /// <summary>Key comparisons per chain when looking for duplicate keys (a hostile chain of equal hashes is long).</summary>
    public const int MaxKeyComparisonsPerChain = 4096;

    public static HashTableDiagnosis Classify(HashTableImage t)
    {
        var state = new ClassifierState(t);
        state.CheckSizes();
        state.WalkFreeList();
        state.WalkBuckets();
        state.Sweep();
        return new HashTableDiagnosis(state.Defects(), state.ReachableLive, state.ExpectedLive, state.Used);
    }

    private sealed class ClassifierState
    {
        private readonly HashTableImage _t;
        private readonly HashTableLayout _layout;
        private readonly int _n;
        private readonly BitSet _onFree;
        private readonly BitSet _onPath;
        private readonly BitSet _done;
        private readonly List<HashTableDefect> _ordered = [];
        private readonly Dictionary<DefectKind, Grouped> _grouped = [];
        private readonly List<(List<int> Members, List<int> Buckets, DefectKind Kind, string Detail)> _chainDefects = [];
        // For entries on a path that ends in a cycle or an out-of-range next: that defect's number + 1.
        // Allocated only when such a path exists, so healthy tables pay nothing for it.
        private int[]? _leadsTo;
        // (hash code, index) of the current chain's entries, to find keys inserted twice by racing writers.
        private readonly List<(int Hash, int Index)> _chain = [];
        private int _freeLength;
        private bool _freeListSound = true;
        private int _cycles;

        public ClassifierState(HashTableImage t)
        {
            _t = t;
            _layout = t.Layout;
            int raw = RawUsed;
            _n = Math.Clamp(raw, 0, t.EntriesLength);
            _onFree = new BitSet(_n);
            _onPath = new BitSet(_n);
            _done = new BitSet(_n);
        }

        public int Used => _n;

        public int ReachableLive { get; private set; }

        public int ExpectedLive => _layout.HighWaterIsLastIndex ? _t.Count : _t.Count - (_t.FreeCount ?? 0);

        private int RawUsed => _layout.HighWaterIsLastIndex ? _t.LastIndex ?? 0 : _t.Count;

        public void CheckSizes()
        {
            int raw = RawUsed;
            string field = _layout.HighWaterIsLastIndex ? "lastIndex" : "count";
            if (raw < 0 || raw > _t.EntriesLength)
                Add(DefectKind.CountOutOfRange, [], [], $"{field} is {raw} but the entry array holds {_t.EntriesLength}");
            if (_t.Buckets.Length != _t.EntriesLength && _t.Buckets.Length > 0 && _t.EntriesLength > 0)
                Add(DefectKind.LengthMismatch, [], [], $"buckets.Length {_t.Buckets.Length} != entries.Length {_t.EntriesLength}");
            if (_layout.HighWaterIsLastIndex && (_t.Count < 0 || _t.Count > _n))
                Add(DefectKind.CountOutOfRange, [], [], $"count is {_t.Count} but lastIndex is {raw}");
        }

        public void WalkFreeList()
        {
            int current = _t.FreeList;
            while (current != -1)
            {
                if (current < 0 || current >= _n)
                {
                    Fail([], $"the free list points to {current}, outside the used entries [0, {_n})");
                    return;
                }
                if (_onFree[current])
                {
                    Fail([current], $"the free list loops back to entry {current}");
                    return;
                }
                if (!IsFree(current))
                {
                    Fail([current], $"the free list runs through live entry {current}");
                    return;
                }
                _onFree[current] = true;
                _freeLength++;
                current = FreeNext(current);
            }

            int? expected = _layout.HighWaterIsLastIndex ? RawUsed - _t.Count : _t.FreeCount;
            if (expected is int e && e != _freeLength)
                Add(DefectKind.FreeCountMismatch, [], [], $"the free list holds {_freeLength} entries but {(_layout.HighWaterIsLastIndex ? "lastIndex - count" : "freeCount")} says {e}");

            for (int i = 0; i < _n; i++)
                if (IsFree(i) && !_onFree[i])
                    Group(DefectKind.CorruptFreeList, [i], [], ("free entry not on the free list", "free entries not on the free list"));

            void Fail(List<int> indices, string detail)
            {
                _freeListSound = false;
                Add(DefectKind.CorruptFreeList, indices, [], detail);
            }
        }

        public void WalkBuckets()
        {
            int[] buckets = _t.Buckets;
            for (int b = 0; b < buckets.Length; b++)
            {
                long head = _layout.OneBasedBuckets ? (long)buckets[b] - 1 : buckets[b];
                if (head == -1)
                    continue;
                if (head < -1 || head >= _n)
                {
                    Group(DefectKind.BucketOutOfRange, [], [b], ("bucket pointing outside the used entries", "buckets pointing outside the used entries"));
                    continue;
                }
                WalkChain(b, (int)head);
            }
        }

        private void WalkChain(int bucket, int head)
        {
            int i = head, previous = -1, length = 0;
            int? reached = null;
            _chain.Clear();
            while (i != -1)
            {
                if (i < -1 || i >= _n)
                {
                    reached = ChainDefect(DefectKind.NextOutOfRange, [previous], bucket,
                        $"entries[{previous}].next = {i}, outside the used entries [0, {_n})");
                    break;
                }
                if (_onPath[i])
                {
                    reached = Cycle(i, length, bucket);
                    break;
                }
                if (_done[i])
                {
                    if (_leadsTo is not null && _leadsTo[i] > 0)
                    {
                        int defect = _leadsTo[i] - 1;
                        if (_chainDefects[defect].Buckets.Count < MaxListed)
                            _chainDefects[defect].Buckets.Add(bucket);
                        reached = defect;
                    }
                    else
                    {
                        Group(DefectKind.CrossLinked, [i], [bucket], ("entry reached from two buckets (chains joined)", "entries reached from two buckets (chains joined)"));
                    }
                    break;
                }
                if (IsFree(i))
                {
                    Group(DefectKind.ChainReachesFreeEntry, [i], [bucket], ("chain reaching a free entry", "chains reaching a free entry"));
                    break;
                }
                if (_t.Buckets.Length > 0 && (uint)_t.HashCodes[i] % (uint)_t.Buckets.Length != (uint)bucket)
                    Group(DefectKind.WrongBucket, [i], [bucket], ("entry in a chain its hash code does not map to", "entries in a chain their hash code does not map to"));
                _onPath[i] = true;
                _chain.Add((_t.HashCodes[i], i));
                length++;
                previous = i;
                i = _t.Nexts[i];
            }

            FindDuplicateKeys(bucket);

            // Re-walk the same path (it is simple: we stopped before any revisit) and mark it done.
            if (reached is not null)
                _leadsTo ??= new int[_n];
            int j = head;
            for (int k = 0; k < length; k++)
            {
                _onPath[j] = false;
                _done[j] = true;
                if (reached is int r)
                    _leadsTo![j] = r + 1;
                j = _t.Nexts[j];
            }
        }

        /// <summary>Entries of one chain with equal hash codes whose keys the image says are equal.</summary>
        private void FindDuplicateKeys(int bucket)
        {
            if (_t.KeysEqual is null || _chain.Count < 2)
                return;
            _chain.Sort();
            int comparisons = 0;
            for (int a = 0; a < _chain.Count; a++)
            {
                for (int b = a + 1; b < _chain.Count && _chain[b].Hash == _chain[a].Hash; b++)
                {
                    if (++comparisons > MaxKeyComparisonsPerChain)
                        return;
                    if (_t.KeysEqual(_chain[a].Index, _chain[b].Index))
                        Group(DefectKind.DuplicateKey, [_chain[a].Index, _chain[b].Index], [bucket], ("key stored twice", "keys stored twice"), countAs: 1);
                }
            }
        }

        private int Cycle(int start, int pathLength, int bucket)
        {
            var members = new List<int> { start };
            int m = _t.Nexts[start];
            for (int k = 0; k < pathLength && m != start; k++)
            {
                members.Add(m);
                m = _t.Nexts[m];
            }
            _cycles++;
            return members.Count == 1
                ? ChainDefect(DefectKind.SelfCycle, members, bucket, $"entries[{start}].next == {start}")
                : ChainDefect(DefectKind.Cycle, members, bucket, $"entries {string.Join(" -> ", members.Take(MaxListed))} -> {start}");
        }

        private int ChainDefect(DefectKind kind, List<int> indices, int bucket, string detail)
        {
            _chainDefects.Add((indices, [bucket], kind, detail));
            return _chainDefects.Count - 1;
        }

        public void Sweep()
        {
            int reachable = 0;
            for (int i = 0; i < _n; i++)
            {
                if (_done[i])
                {
                    reachable++;
                    continue;
                }
                if (_onFree[i] || IsFree(i))
                    continue;
                if (_t.Blank?[i] == true)
                    Group(DefectKind.PhantomEntry, [i], [], ("entry counted but never written", "entries counted but never written"));
                else
                    Group(DefectKind.OrphanedEntry, [i], [], ("live entry no bucket reaches", "live entries no bucket reaches"));
            }
            ReachableLive = reachable;
            if (reachable != ExpectedLive && _freeListSound)
                Add(DefectKind.CountMismatch, [], [], $"{reachable} live entries are reachable from the buckets but the instance counts {ExpectedLive}");
        }

        public List<HashTableDefect> Defects()
        {
            var result = new List<HashTableDefect>();
            int listed = 0;
            foreach (var d in _chainDefects)
            {
                bool isCycle = d.Kind is DefectKind.Cycle or DefectKind.SelfCycle;
                if (isCycle && ++listed > MaxCycles)
                    continue;
                string detail = isCycle && listed == MaxCycles && _cycles > MaxCycles ? $"{d.Detail} (and {_cycles - MaxCycles} more cycles)" : d.Detail;
                result.Add(new HashTableDefect(d.Kind, Cap(d.Members), Cap(d.Buckets.Distinct().ToList()), detail));
            }
            result.AddRange(_ordered);
            foreach (var (kind, g) in _grouped)
                result.Add(new HashTableDefect(kind, [.. g.Indices], [.. g.Buckets], $"{g.Count} {(g.Count == 1 ? g.Detail.One : g.Detail.Many)}"));
            return result;
        }

        private bool IsFree(int i) => _layout.LiveByHashCode ? _t.HashCodes[i] < 0 : _t.Nexts[i] < -1;

        private int FreeNext(int i) => _layout.EncodedFreeList ? -3 - _t.Nexts[i] : _t.Nexts[i];

        private void Add(DefectKind kind, List<int> indices, List<int> buckets, string detail) =>
            _ordered.Add(new HashTableDefect(kind, Cap(indices), Cap(buckets), detail));

        private void Group(DefectKind kind, List<int> indices, List<int> buckets, (string One, string Many) detail, int? countAs = null)
        {
            if (!_grouped.TryGetValue(kind, out Grouped? g))
                _grouped[kind] = g = new Grouped(detail);
            g.Count += countAs ?? Math.Max(1, indices.Count == 0 ? buckets.Count : indices.Count);
            g.Indices.AddRange(indices.Take(MaxListed - g.Indices.Count));
            foreach (int b in buckets)
                if (g.Buckets.Count < MaxListed && !g.Buckets.Contains(b))
                    g.Buckets.Add(b);
        }

        private static int[] Cap(List<int> values) => values.Count <= MaxListed ? [.. values] : [.. values.Take(MaxListed)];

        private sealed class Grouped((string One, string Many) detail)
        {
            public (string One, string Many) Detail { get; } = detail;

            public int Count { get; set; }

            public List<int> Indices { get; } = [];

            public List<int> Buckets { get; } = [];
        }
    }
}
