package hook

// Table is the table the chain runs now, for a listing; it must not be
// changed (Set replaces it whole).
func (c *Chain) Table() Table { return *c.table.Load() }
