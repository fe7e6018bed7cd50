// Owns one COM interface pointer: released when the owner goes out of scope, so no early return leaks one.
#pragma once
#include <windows.h>
#include <unknwn.h>

template <typename T>
class ComPtr
{
public:
    ComPtr() = default;
    ComPtr(const ComPtr&) = delete;
    ComPtr& operator=(const ComPtr&) = delete;
    ~ComPtr() { Reset(); }

    T* Get() const { return m_ptr; }
    T* operator->() const { return m_ptr; }
    explicit operator bool() const { return m_ptr != nullptr; }

    // For QueryInterface-style out parameters: releases the old pointer first.
    void** PutVoid()
    {
        Reset();
        return reinterpret_cast<void**>(&m_ptr);
    }

    void Reset()
    {
        if (m_ptr != nullptr)
            m_ptr->Release();
        m_ptr = nullptr;
    }

private:
    T* m_ptr = nullptr;
};

// QueryInterface into a ComPtr; returns the HRESULT.
template <typename T>
HRESULT QueryInto(IUnknown* from, REFIID iid, ComPtr<T>& to)
{
    return from->QueryInterface(iid, to.PutVoid());
}
