typedef struct { int a; } t_t;
typedef union { int a; } t_t;
