// Package linediff computes line diffs of the size tools produce: Myers'
// O(ND) algorithm over lines, with the work bounded so a huge or wholly
// rewritten file costs a fixed amount and is reported as "too large"
// instead of a diff. It is used to show people what an edit or a write
// changed; the model never sees its output.
package linediff

// Op is what an edit does with one line.
type Op int8

const (
	Equal  Op = iota // the line is in both: A and B index it
	Delete           // the line is only in a: A indexes it
	Insert           // the line is only in b: B indexes it
)

// Edit is one step of a script turning a into b. A is the 0-based index
// of the line in a (Equal, Delete), B in b (Equal, Insert); the other is
// where the line would be.
type Edit struct {
	Op   Op
	A, B int
}

// Lines returns the shortest edit script turning a into b, in order. ok is
// false, and the script nil, when more than maxD lines would have to be
// deleted or inserted: the work (time O((N+M)·maxD), memory O(maxD²)) is
// bounded by maxD, not by the size of the inputs.
func Lines(a, b []string, maxD int) (script []Edit, ok bool) {
	n, m := len(a), len(b)
	if maxD > n+m {
		maxD = n + m
	}
	off := maxD + 1
	v := make([]int, 2*maxD+3)
	// trace[d] is v after step d, for the diagonals -d..d: all the
	// backtrack needs.
	var trace [][]int
	for d := 0; d <= maxD; d++ {
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = v[off+k+1] // down: insert b[y]
			} else {
				x = v[off+k-1] + 1 // right: delete a[x]
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x, y = x+1, y+1
			}
			v[off+k] = x
			if x >= n && y >= m {
				trace = append(trace, append([]int(nil), v[off-d:off+d+1]...))
				return backtrack(trace, n, m), true
			}
		}
		trace = append(trace, append([]int(nil), v[off-d:off+d+1]...))
	}
	return nil, false
}

// backtrack walks the trace from (n, m) back to (0, 0).
func backtrack(trace [][]int, n, m int) []Edit {
	var rev []Edit
	x, y := n, m
	for d := len(trace) - 1; d > 0; d-- {
		prev := trace[d-1] // diagonal k is at prev[k+d-1]
		k := x - y
		var pk int
		if k == -d || (k != d && prev[k-1+d-1] < prev[k+1+d-1]) {
			pk = k + 1
		} else {
			pk = k - 1
		}
		px := prev[pk+d-1]
		py := px - pk
		mx, my := px+1, py // after the move
		if pk == k+1 {
			mx, my = px, py+1
		}
		for x > mx && y > my {
			x, y = x-1, y-1
			rev = append(rev, Edit{Equal, x, y})
		}
		if pk == k+1 {
			rev = append(rev, Edit{Insert, px, py})
		} else {
			rev = append(rev, Edit{Delete, px, py})
		}
		x, y = px, py
	}
	for x > 0 && y > 0 {
		x, y = x-1, y-1
		rev = append(rev, Edit{Equal, x, y})
	}
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	return rev
}
