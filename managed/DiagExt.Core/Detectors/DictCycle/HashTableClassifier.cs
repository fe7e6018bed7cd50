using System.Runtime.CompilerServices;

namespace DiagExt.Core.Detectors.DictCycle;

/// <summary>
/// Classifies the chains of one Dictionary/HashSet in O(n + B) time (n = used entries, B = buckets): first
/// <see cref="ChainProof"/> (about a byte per entry), which settles a sound table; otherwise the careful walk
/// (about 3n bits), which names every defect. Every loop is bounded: each step of the walk moves an entry's mark
/// forward (unseen, on the path, done; or onto the free list), never back, so a hostile image cannot make it run
/// longer or allocate more than its arrays.
/// Measured on a 5-million-entry Dictionary from a dump: see bench/RESULTS.md.
/// </summary>
internal static class HashTableClassifier
{
    /// <summary>Indices and buckets listed per defect; counts beyond this are given as totals.</summary>
    public const int MaxListed = 64;

    /// <summary>Cycles reported one by one; further cycles are counted in the last one's detail.</summary>
    public const int MaxCycles = 64;

    /// <summary>Chain heads loaded ahead of their walks (see TouchHeads).</summary>
    private const int BucketBatch = 32;

    /// <summary>
    /// Used entries from which the fast path looks for equal hash codes on a second thread while the proof runs: the
    /// two read the same arrays and neither needs the other until both are done. Below it a thread costs more than it saves.
    /// </summary>
    internal const int ConcurrentFrom = 1 << 20;

    /// <param name="fastPath">
    /// Try <see cref="ChainProof"/> first (false only in tests that compare it with the careful walk).
    /// </param>
    /// <param name="concurrent">A second core may help with a big table (false when the caller was asked for one thread).</param>
    public static HashTableDiagnosis Classify(HashTableImage t, bool fastPath = true, bool concurrent = false) =>
        Classify(t, fastPath, concurrent ? ConcurrentFrom : int.MaxValue);

    /// <summary>As above, with a second thread from <paramref name="concurrentFrom"/> used entries on (tests give 0).</summary>
    internal static HashTableDiagnosis Classify(HashTableImage t, bool fastPath, int concurrentFrom)
    {
        var state = new ClassifierState(t);
        state.CheckSizes();
        state.WalkFreeList();
        if (!fastPath || !state.TryProveChains(concurrentFrom))
        {
            state.WalkBuckets();
            state.Sweep();
        }
        state.CompareKeys();
        return new HashTableDiagnosis(state.Defects(), state.ReachableLive, state.ExpectedLive, state.Used);
    }

    private sealed class ClassifierState
    {
        private readonly HashTableImage _t;
        private readonly HashTableLayout _layout;
        private readonly int _n;
        private readonly BitSet _onFree;
        // The careful walk's state, allocated only when it runs.
        private ChainMarks _marks = null!;
        private readonly List<HashTableDefect> _ordered = [];
        private readonly Dictionary<DefectKind, Grouped> _grouped = [];
        private readonly List<(List<int> Members, List<int> Buckets, DefectKind Kind, string Detail)> _chainDefects = [];
        // For entries on a path that ends in a cycle or an out-of-range next: that defect's number + 1.
        // Allocated only when such a path exists, so healthy tables pay nothing for it.
        private int[]? _leadsTo;
        // The current chain's entries in order.
        private int[] _path = new int[16];
        private DuplicateKeyCandidates _keyPairs = new();
        private readonly FastModulo _bucketOf;
        private int _touched;
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
            _bucketOf = new FastModulo((uint)t.Buckets.Length);
        }

        public int Used => _n;

        public int ReachableLive { get; private set; }

        public int ExpectedLive => _layout.LiveCount(_t.Count, _t.FreeCount);

        private int RawUsed => _layout.HighWater(_t.Count, _t.LastIndex);

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

        [MethodImpl(MethodImplOptions.AggressiveOptimization)] // runs once per table, millions of iterations: skip tier-0 code
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
                if (!_t.IsFree(current))
                {
                    Fail([current], $"the free list runs through live entry {current}");
                    return;
                }
                _onFree[current] = true;
                _freeLength++;
                current = FreeNext(current);
            }

            int? expected = _layout.FreeCount(RawUsed, _t.Count, _t.FreeCount);
            if (expected is int e && e != _freeLength)
                Add(DefectKind.FreeCountMismatch, [], [], $"the free list holds {_freeLength} entries but {(_layout.HighWaterIsLastIndex ? "lastIndex - count" : "freeCount")} says {e}");

            // The list's entries are free, distinct and in range (checked above), so when it holds as many as there
            // are free entries, none is off it: a tight count settles the usual case without a lookup per entry.
            if (_freeListSound && CountFree() == _freeLength)
                return;
            for (int i = 0; i < _n; i++)
                if (_t.IsFree(i) && !_onFree[i])
                    Group(DefectKind.CorruptFreeList, [i], [], ("free entry not on the free list", "free entries not on the free list"));

            void Fail(List<int> indices, string detail)
            {
                _freeListSound = false;
                Add(DefectKind.CorruptFreeList, indices, [], detail);
            }
        }

        [MethodImpl(MethodImplOptions.AggressiveOptimization)] // runs once per table, millions of iterations: skip tier-0 code
        private int CountFree()
        {
            int[] hashes = _t.HashCodes, nexts = _t.Nexts;
            int free = 0;
            for (int i = 0; i < _n; i++)
                free += _layout.IsFree(hashes[i], nexts[i]) ? 1 : 0;
            return free;
        }

        /// <summary>
        /// The fast path (<see cref="ChainProof"/>), taken only when it proves there is nothing for the careful walk
        /// to report; then only the count and the duplicate-key candidates remain to check.
        /// </summary>
        public bool TryProveChains(int concurrentFrom)
        {
            // EqualHashGroups reads only the entries' own hash codes and nexts, never follows an index, so it is safe
            // to start before the proof has vouched for the chains; its pairs are dropped if the proof fails.
            // On two cores the grouping, which reads the whole table, is split between them first; then the filter runs
            // beside the proof, as long as the proof alone.
            Task? collecting = null;
            if (_t.KeysEqual is not null && _n >= concurrentFrom)
            {
                EqualHashGroups.Grouped grouped = EqualHashGroups.Group(_t, _n, parts: 2);
                collecting = Task.Run(() => grouped.Collect(_keyPairs));
            }
            int? proven = ChainProof.Prove(_t, _n);
            collecting?.Wait(); // a task no pool thread has taken yet runs here, inline: no wait on a starved pool
            if (proven is not int live)
            {
                _keyPairs = new();
                return false;
            }
            if (collecting is null && _t.KeysEqual is not null)
                EqualHashGroups.Collect(_t, _n, _keyPairs);
            CheckCount(live);
            return true;
        }

        [MethodImpl(MethodImplOptions.AggressiveOptimization)] // runs once per table, millions of iterations: skip tier-0 code
        public void WalkBuckets()
        {
            _marks = new ChainMarks(_n);
            int[] buckets = _t.Buckets;
            Span<long> heads = stackalloc long[BucketBatch];
            for (int start = 0; start < buckets.Length; start += BucketBatch)
            {
                int count = Math.Min(BucketBatch, buckets.Length - start);
                for (int k = 0; k < count; k++)
                    heads[k] = _layout.OneBasedBuckets ? (long)buckets[start + k] - 1 : buckets[start + k];
                TouchHeads(heads[..count]);
                for (int k = 0; k < count; k++)
                {
                    long head = heads[k];
                    int b = start + k;
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
        }

        /// <summary>
        /// Loads a batch of chain heads before walking them. In a big table nearly every head is a cache miss;
        /// these loads do not depend on each other, so the memory system serves them together and the walks
        /// then find them in cache (measured: about a quarter off the walk of a 5-million-entry table).
        /// </summary>
        [MethodImpl(MethodImplOptions.AggressiveOptimization)] // runs once per table, millions of iterations: skip tier-0 code
        private void TouchHeads(ReadOnlySpan<long> heads)
        {
            int[] nexts = _t.Nexts, hashes = _t.HashCodes;
            int sum = 0;
            foreach (long head in heads)
                if ((ulong)head < (ulong)_n)
                    sum += nexts[head] ^ hashes[head];
            _touched = sum; // stored, so the loads are not optimised away
        }

        [MethodImpl(MethodImplOptions.AggressiveOptimization)] // runs once per table, millions of iterations: skip tier-0 code
        private void WalkChain(int bucket, int head)
        {
            int[] nexts = _t.Nexts, hashes = _t.HashCodes;
            int i = head, previous = -1, length = 0;
            int? reached = null;
            while (i != -1)
            {
                if (i < -1 || i >= _n)
                {
                    reached = ChainDefect(DefectKind.NextOutOfRange, [previous], bucket,
                        $"entries[{previous}].next = {i}, outside the used entries [0, {_n})");
                    break;
                }
                ChainMark mark = _marks[i];
                if (mark == ChainMark.OnPath)
                {
                    reached = Cycle(i, length, bucket);
                    break;
                }
                if (mark == ChainMark.Done)
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
                if (_t.IsFree(i))
                {
                    Group(DefectKind.ChainReachesFreeEntry, [i], [bucket], ("chain reaching a free entry", "chains reaching a free entry"));
                    break;
                }
                if (_bucketOf.Divisor > 0 && _bucketOf.Remainder((uint)hashes[i]) != (uint)bucket)
                    Group(DefectKind.WrongBucket, [i], [bucket], ("entry in a chain its hash code does not map to", "entries in a chain their hash code does not map to"));
                _marks[i] = ChainMark.OnPath;
                if (length == _path.Length)
                    Array.Resize(ref _path, Math.Min(_n, 2 * length));
                _path[length++] = i;
                previous = i;
                i = nexts[i];
            }

            if (_t.KeysEqual is not null)
                _keyPairs.AddChain(_path.AsSpan(0, length), hashes, bucket);

            // The path is simple (we stopped before any revisit): mark it done.
            if (reached is not null)
                _leadsTo ??= new int[_n];
            for (int k = 0; k < length; k++)
            {
                int j = _path[k];
                _marks[j] = ChainMark.Done;
                if (reached is int r)
                    _leadsTo![j] = r + 1;
            }
        }

        /// <summary>Keys stored twice: one batch of reads for every candidate pair of the table.</summary>
        public void CompareKeys()
        {
            if (_keyPairs.Pairs.Count == 0)
                return;
            bool[] equal = _t.KeysEqual!(_keyPairs.Pairs);
            for (int p = 0; p < Math.Min(equal.Length, _keyPairs.Pairs.Count); p++)
                if (equal[p])
                    Group(DefectKind.DuplicateKey, [_keyPairs.Pairs[p].A, _keyPairs.Pairs[p].B], [_keyPairs.Buckets[p]], ("key stored twice", "keys stored twice"), countAs: 1);
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

        [MethodImpl(MethodImplOptions.AggressiveOptimization)] // runs once per table, millions of iterations: skip tier-0 code
        public void Sweep()
        {
            int reachable = 0;
            for (int i = 0; i < _n; i++)
            {
                if (_marks[i] == ChainMark.Done)
                {
                    reachable++;
                    continue;
                }
                if (_onFree[i] || _t.IsFree(i))
                    continue;
                if (_t.Blank?[i] == true)
                    Group(DefectKind.PhantomEntry, [i], [], ("entry counted but never written", "entries counted but never written"));
                else
                    Group(DefectKind.OrphanedEntry, [i], [], ("live entry no bucket reaches", "live entries no bucket reaches"));
            }
            CheckCount(reachable);
        }

        private void CheckCount(int reachable)
        {
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
