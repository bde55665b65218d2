/* A struct that declares nothing (`struct { ... };`) still has its members checked. */
struct {
	int trace();
};
