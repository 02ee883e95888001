// SPDX-License-Identifier: GPL-3.0-or-later
// The Boost.Intrusive list types standing in for the kernel's struct list_head.
#pragma once

#include <boost/intrusive/list.hpp>

namespace inflight {

namespace bi = boost::intrusive;
// safe_link: unlinked hooks are null, so is_linked() works and the invariant checker can test
// list membership the way the kernel's BUG_ON(list_empty(&u->link)) does.
using SafeHook = bi::list_member_hook<bi::link_mode<bi::safe_link>>;
using SafeBaseHook = bi::list_base_hook<bi::link_mode<bi::safe_link>>;

// A list head inside an object that the model state copies (a socket's receive queue, a
// vertex's edges). Copying an intrusive list cannot copy its links — the elements of the copy
// are other objects — so a copied head starts empty and the state copy (kernel_copy.cpp) links
// the copied elements in the source's order.
template <class List>
struct CopiedEmpty : List {
    CopiedEmpty() = default;
    CopiedEmpty(const CopiedEmpty &) : List() { }
    CopiedEmpty &operator=(const CopiedEmpty &) = delete;
};

} // namespace inflight
