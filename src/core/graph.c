/* OpGraph: tensors, ops, def-use edges and validation. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

size_t mrt_dtype_size(mrt_dtype d) {
    static const size_t sz[] = {2, 1, 4, 4, 1};
    return (unsigned)d < MRT_DTYPE_COUNT ? sz[d] : 0;
}

const char *mrt_dtype_name(mrt_dtype d) {
    static const char *n[] = {"bf16", "e4m3", "f32", "i32", "u8"};
    return (unsigned)d < MRT_DTYPE_COUNT ? n[d] : "?";
}

mrt_graph *mrt_graph_new(mrt_context *ctx) {
    mrt_graph *g = calloc(1, sizeof *g);
    if (!g) {
        mrt_fail(ctx, MRT_ERR_NOMEM, "graph: out of memory");
        return NULL;
    }
    g->ctx = ctx;
    return g;
}

void mrt_graph_free(mrt_graph *g) { free(g); }

mrt_tensor *mrt_tensor_new(mrt_graph *g, const char *name, mrt_dtype dtype, mrt_role role,
                           int ndim, const int64_t *dims) {
    if (!g) return NULL;
    if (!name || !*name || strlen(name) >= sizeof g->tensors[0].name) {
        mrt_fail(g->ctx, MRT_ERR_INVALID, "tensor: name missing or longer than 31 characters");
        return NULL;
    }
    if ((unsigned)dtype >= MRT_DTYPE_COUNT || (unsigned)role >= MRT_ROLE_COUNT) {
        mrt_fail(g->ctx, MRT_ERR_DTYPE, "tensor %s: unknown dtype %d or role %d", name, dtype, role);
        return NULL;
    }
    if (ndim < 1 || ndim > MRT_MAX_DIMS || !dims) {
        mrt_fail(g->ctx, MRT_ERR_SHAPE, "tensor %s: %d dims (1 to %d allowed)", name, ndim,
                 MRT_MAX_DIMS);
        return NULL;
    }
    if (mrt_graph_find_tensor(g, name)) {
        mrt_fail(g->ctx, MRT_ERR_INVALID, "tensor %s: name already used", name);
        return NULL;
    }
    if (g->n_tensors >= MRT_MAX_TENSORS) {
        mrt_fail(g->ctx, MRT_ERR_LIMIT, "tensor %s: graph holds at most %d tensors", name,
                 MRT_MAX_TENSORS);
        return NULL;
    }
    mrt_tensor *t = &g->tensors[g->n_tensors];
    memset(t, 0, sizeof *t);
    t->id = g->n_tensors++;
    strcpy(t->name, name);
    t->dtype = dtype;
    t->role = role;
    t->ndim = ndim;
    for (int d = 0; d < ndim; d++) t->dims[d] = dims[d];
    t->producer = -1;
    return t;
}

static bool tensor_in_graph(const mrt_graph *g, const mrt_tensor *t) {
    return t && t >= g->tensors && t < g->tensors + g->n_tensors;
}

mrt_op *mrt_op_new(mrt_graph *g, const char *kind, const char *name, int n_in,
                   mrt_tensor *const *in, int n_out, mrt_tensor *const *out,
                   const mrt_op_params *params) {
    if (!g) return NULL;
    const char *nm = name ? name : "?";
    const mrt_op_class *cls = kind ? mrt_op_class_find(kind) : NULL;
    if (!cls) {
        mrt_fail(g->ctx, MRT_ERR_UNKNOWN_OP, "op %s: unknown op kind \"%s\"", nm, kind ? kind : "");
        return NULL;
    }
    if (!name || !*name || strlen(name) >= sizeof g->ops[0].name) {
        mrt_fail(g->ctx, MRT_ERR_INVALID, "op of kind %s: name missing or longer than 15 characters",
                 kind);
        return NULL;
    }
    if (mrt_graph_find_op(g, name)) {
        mrt_fail(g->ctx, MRT_ERR_INVALID, "op %s: name already used", name);
        return NULL;
    }
    if (n_in < 0 || n_in > MRT_MAX_OP_IO || n_out < 1 || n_out > MRT_MAX_OP_IO) {
        mrt_fail(g->ctx, MRT_ERR_GRAPH, "op %s: %d inputs and %d outputs (1..%d outputs allowed)",
                 name, n_in, n_out, MRT_MAX_OP_IO);
        return NULL;
    }
    for (int i = 0; i < n_in; i++)
        if (!tensor_in_graph(g, in[i])) {
            mrt_fail(g->ctx, MRT_ERR_INVALID, "op %s: input %d is not a tensor of this graph", name, i);
            return NULL;
        }
    for (int i = 0; i < n_out; i++)
        if (!tensor_in_graph(g, out[i])) {
            mrt_fail(g->ctx, MRT_ERR_INVALID, "op %s: output %d is not a tensor of this graph", name, i);
            return NULL;
        }
    if (g->n_ops >= MRT_MAX_OPS) {
        mrt_fail(g->ctx, MRT_ERR_LIMIT, "op %s: graph holds at most %d ops", name, MRT_MAX_OPS);
        return NULL;
    }
    mrt_op *op = &g->ops[g->n_ops];
    memset(op, 0, sizeof *op);
    op->id = g->n_ops++;
    op->kind = cls->opcode;
    strcpy(op->name, name);
    op->n_in = n_in;
    op->n_out = n_out;
    for (int i = 0; i < n_in; i++) op->in[i] = in[i]->id;
    for (int i = 0; i < n_out; i++) op->out[i] = out[i]->id;
    if (params) op->p = *params;
    return op;
}

/* Kahn's algorithm over op -> op edges; the cycle's members are named on failure. */
static mrt_status check_acyclic(mrt_graph *g) {
    int indeg[MRT_MAX_OPS] = {0};
    for (int o = 0; o < g->n_ops; o++)
        for (int i = 0; i < g->ops[o].n_in; i++)
            if (g->tensors[g->ops[o].in[i]].producer >= 0) indeg[o]++;
    int stack[MRT_MAX_OPS], n = 0, seen = 0;
    for (int o = 0; o < g->n_ops; o++)
        if (!indeg[o]) stack[n++] = o;
    while (n) {
        int o = stack[--n];
        seen++;
        for (int c = 0; c < g->n_ops; c++)
            for (int i = 0; i < g->ops[c].n_in; i++)
                if (g->tensors[g->ops[c].in[i]].producer == o && --indeg[c] == 0) stack[n++] = c;
    }
    if (seen == g->n_ops) return MRT_OK;
    char names[256] = "";
    for (int o = 0; o < g->n_ops; o++)
        if (indeg[o] && strlen(names) + 20 < sizeof names) {
            strcat(names, " ");
            strcat(names, g->ops[o].name);
        }
    return mrt_fail(g->ctx, MRT_ERR_GRAPH, "graph has a cycle through ops:%s", names);
}

mrt_status mrt_graph_validate(mrt_graph *g) {
    if (!g) return MRT_ERR_INVALID;
    if (!g->n_ops) return mrt_fail(g->ctx, MRT_ERR_GRAPH, "graph has no ops");
    for (int t = 0; t < g->n_tensors; t++) {
        mrt_tensor *x = &g->tensors[t];
        x->producer = -1;
        for (int d = 0; d < x->ndim; d++)
            if (x->dims[d] <= 0)
                return mrt_fail(g->ctx, MRT_ERR_SHAPE, "tensor %s: dimension %d is %lld (M = 0?)",
                                x->name, d, (long long)x->dims[d]);
    }
    for (int o = 0; o < g->n_ops; o++) {
        mrt_op *op = &g->ops[o];
        for (int i = 0; i < op->n_out; i++) {
            mrt_tensor *x = &g->tensors[op->out[i]];
            if (x->producer >= 0)
                return mrt_fail(g->ctx, MRT_ERR_GRAPH, "tensor %s is written by two ops: %s and %s",
                                x->name, g->ops[x->producer].name, op->name);
            if (x->role == MRT_ROLE_INPUT || x->role == MRT_ROLE_WEIGHT)
                return mrt_fail(g->ctx, MRT_ERR_GRAPH, "op %s writes tensor %s, whose role is %s",
                                op->name, x->name, x->role == MRT_ROLE_INPUT ? "input" : "weight");
            x->producer = o;
        }
    }
    mrt_status s = check_acyclic(g);
    if (s) return s;
    for (int o = 0; o < g->n_ops; o++) {
        const mrt_op *op = &g->ops[o];
        const mrt_op_class *cls = mrt_op_class_get(op->kind);
        if (!cls) return mrt_fail(g->ctx, MRT_ERR_UNKNOWN_OP, "op %s: unknown kind %d", op->name, op->kind);
        if ((cls->n_in >= 0 && op->n_in != cls->n_in) || (cls->n_out >= 0 && op->n_out != cls->n_out))
            return mrt_fail(g->ctx, MRT_ERR_GRAPH, "op %s (%s): %d inputs and %d outputs, expected %d and %d",
                            op->name, cls->name, op->n_in, op->n_out, cls->n_in, cls->n_out);
        s = cls->check(g->ctx, g, op);
        if (s) return s;
    }
    return MRT_OK;
}

int mrt_graph_num_ops(const mrt_graph *g) { return g->n_ops; }
int mrt_graph_num_tensors(const mrt_graph *g) { return g->n_tensors; }
mrt_op *mrt_graph_op(const mrt_graph *g, int i) {
    return i >= 0 && i < g->n_ops ? (mrt_op *)&g->ops[i] : NULL;
}
mrt_tensor *mrt_graph_tensor(const mrt_graph *g, int i) {
    return i >= 0 && i < g->n_tensors ? (mrt_tensor *)&g->tensors[i] : NULL;
}
mrt_op *mrt_graph_find_op(const mrt_graph *g, const char *name) {
    for (int i = 0; i < g->n_ops; i++)
        if (!strcmp(g->ops[i].name, name)) return (mrt_op *)&g->ops[i];
    return NULL;
}
mrt_tensor *mrt_graph_find_tensor(const mrt_graph *g, const char *name) {
    for (int i = 0; i < g->n_tensors; i++)
        if (!strcmp(g->tensors[i].name, name)) return (mrt_tensor *)&g->tensors[i];
    return NULL;
}
const char *mrt_op_name(const mrt_op *op) { return op->name; }
const char *mrt_op_kind(const mrt_op *op) { return mrt_op_class_get(op->kind)->name; }
const char *mrt_tensor_name(const mrt_tensor *t) { return t->name; }
int mrt_tensor_id(const mrt_tensor *t) { return t->id; }
mrt_dtype mrt_tensor_dtype(const mrt_tensor *t) { return t->dtype; }
mrt_role mrt_tensor_role(const mrt_tensor *t) { return t->role; }
int mrt_tensor_ndim(const mrt_tensor *t) { return t->ndim; }
int64_t mrt_tensor_dim(const mrt_tensor *t, int d) { return d >= 0 && d < t->ndim ? t->dims[d] : 1; }
int64_t mrt_tensor_rows(const mrt_tensor *t) { return t->dims[0]; }
int64_t mrt_tensor_cols(const mrt_tensor *t) {
    int64_t c = 1;
    for (int d = 1; d < t->ndim; d++) c *= t->dims[d];
    return c;
}
size_t mrt_tensor_bytes(const mrt_tensor *t) {
    return (size_t)(mrt_tensor_rows(t) * mrt_tensor_cols(t)) * mrt_dtype_size(t->dtype);
}
